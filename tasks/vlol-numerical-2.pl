% V-LoL-Trains, Numerical rule, trains of 2 cars, as a DeepProbLog program: the twin of
% tasks/vlol-numerical-2.yaml, whose hand-written expression it must match on every concept vector
% (tests/test_program_twins.py).
% Perception: one network per car attribute classifies every car (the neural predicates are the
% objects mode's attributes, in the yaml's order); the train encoding below lists the train's cars.
% Rule (V-LoL appendix A.3):
%   eastbound(Train) :- has_car(Train, Car), load_num(Car, N), car_num(Car, N), has_wheel0(Car, N).
% Numbers are Prolog integers: N is one value that the position, the load count and the axle count
% must all equal (with 2 or 3 axles only cars 2 and 3 can match).
nn(axles_net, [X], A, [2, 3]) :: axles(X, A).
nn(load_num_net, [X], N, [0, 1, 2, 3]) :: load_num(X, N).

% The train: its two cars as a list, front first (car 1 is next to the locomotive), and their positions.
train(train, [c1, c2]).
car_num(c1, 1).
car_num(c2, 2).
% Every attribute of every car of the train is perceived, whether or not the rule uses it (always
% true; without it problog keeps only derivations that can succeed, and a car the rule can never
% use would be no object). One predicate per attribute keeps each a disjunction of its values.
perceived_cars([]).
perceived_cars([Car|Cars]) :- perceived(Car), perceived_cars(Cars).
perceived(Car) :- seen_axles(Car), seen_load_num(Car).
seen_axles(Car) :- axles(Car, _).
seen_load_num(Car) :- load_num(Car, _).
has_car(Train, Car) :- train(Train, Cars), perceived_cars(Cars), car_in(Car, Cars).
car_in(Car, [Car|_]).
car_in(Car, [_|Cars]) :- car_in(Car, Cars).

% Background predicates the rule uses (load_num/2 is the network's own predicate).
has_wheel0(Car, N) :- axles(Car, N).

eastbound(Train) :- has_car(Train, Car), load_num(Car, N), car_num(Car, N), has_wheel0(Car, N).
query(eastbound(train)).
