% SDD-OIA's default rules (rsbench, seed 004: section 3.3 "SDD-OIA" and the public generator's rules,
% as tasks/sdd-oia.yaml writes them) as a ProbLog program: each of the 21 concepts is a probabilistic
% fact (what the concept extractor predicts), the four actions are queries. The probabilities play no
% part in a count.
0.5::red_light.  0.5::green_light.  0.5::car.  0.5::person.  0.5::rider.  0.5::other_obstacle.
0.5::follow.  0.5::stop_sign.
0.5::left_lane.  0.5::left_green_light.  0.5::left_follow.
0.5::no_left_lane.  0.5::left_obstacle.  0.5::left_solid_line.
0.5::right_lane.  0.5::right_green_light.  0.5::right_follow.
0.5::no_right_lane.  0.5::right_obstacle.  0.5::right_solid_line.
0.5::clear.

obstacle :- car.
obstacle :- person.
obstacle :- rider.
obstacle :- other_obstacle.
must_stop :- red_light, \+ green_light.
must_stop :- stop_sign.
must_stop :- obstacle.
may_go :- green_light.
may_go :- follow.
may_go :- clear.

stop :- must_stop.
forward :- may_go, \+ must_stop.

left_possible :- left_lane.
left_possible :- left_green_light.
left_possible :- left_follow.
left_blocked :- no_left_lane.
left_blocked :- left_obstacle.
left_blocked :- left_solid_line.
left :- left_possible, \+ left_blocked.

right_possible :- right_lane.
right_possible :- right_green_light.
right_possible :- right_follow.
right_blocked :- no_right_lane.
right_blocked :- right_obstacle.
right_blocked :- right_solid_line.
right :- right_possible, \+ right_blocked.

query(stop).
query(forward).
query(left).
query(right).
