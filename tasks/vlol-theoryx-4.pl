% V-LoL-Trains, Theory X rule, trains of 4 cars, as a DeepProbLog program: the twin of
% tasks/vlol-theoryx-4.yaml, whose hand-written expression it must match on every concept vector
% (tests/test_program_twins.py).
% Perception: one network per car attribute classifies every car (the neural predicates are the
% objects mode's attributes, in the yaml's order); the train encoding below lists the train's cars.
% Rule (V-LoL appendix A.3, the Prolog form, over the list of cars, front first):
%   eastbound([Car|Cars]) :- (short(Car), closed(Car));
%       (has_load0(Car, triangle), has_load1(Cars, circle)); eastbound(Cars).
% with V-LoL's loads of the FOL form, golden_vase for triangle and barrel for circle (has_load1: some
% car behind carries it); the load shape alone is read, not the load count. closed: the roof is not
% none, so a frame roof counts as closed.
% The length network's predicate is car_length/2, not length/2 (concepts car_length_i, not the
% yaml's length_i): length/2 is a ProbLog built-in, and problog refuses a program that defines it.
nn(length_net, [X], L, [short, long]) :: car_length(X, L).
nn(roof_net, [X], R, [none, frame, flat, bars, peaked]) :: roof(X, R).
nn(load_shape_net, [X], S, [blue_box, golden_vase, barrel, diamond, metal_pot, oval_vase, none])
    :: load_shape(X, S).

% The train: its four cars as a list, front first (car 1 is next to the locomotive);
% a car behind another comes later in the list.
train(train, [c1, c2, c3, c4]).
% Every attribute of every car of the train is perceived, whether or not the rule uses it (always
% true; without it problog keeps only derivations that can succeed, and a car the rule can never
% use would be no object). One predicate per attribute keeps each a disjunction of its values.
perceived_cars([]).
perceived_cars([Car|Cars]) :- perceived(Car), perceived_cars(Cars).
perceived(Car) :- seen_length(Car), seen_roof(Car), seen_load_shape(Car).
seen_length(Car) :- car_length(Car, _).
seen_roof(Car) :- roof(Car, _).
seen_load_shape(Car) :- load_shape(Car, _).

% Background predicates the rule uses.
short(Car) :- car_length(Car, short).
closed(Car) :- roof(Car, Roof), Roof \= none.
has_load0(Car, Shape) :- load_shape(Car, Shape).
has_load1(Cars, Shape) :- car_in(Car, Cars), has_load0(Car, Shape).
car_in(Car, [Car|_]).
car_in(Car, [_|Cars]) :- car_in(Car, Cars).

% A train is eastbound when its list of cars, all perceived, is.
eastbound(Train) :- train(Train, Cars), perceived_cars(Cars), eastbound(Cars).
eastbound([Car|Cars]) :- (short(Car), closed(Car));
    (has_load0(Car, golden_vase), has_load1(Cars, barrel)); eastbound(Cars).
query(eastbound(train)).
