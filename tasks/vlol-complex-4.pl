% V-LoL-Trains, Complex rule, trains of 4 cars, as a DeepProbLog program: the twin of
% tasks/vlol-complex-4.yaml, whose hand-written expression it must match on every concept vector
% (tests/test_program_twins.py).
% Perception: one network per car attribute classifies every car (the neural predicates are the
% objects mode's attributes, in the yaml's order); the train encoding below lists the train's cars.
% Rule (V-LoL appendix A.3; the paper's X /= Y is Prolog's X \= Y):
%   eastbound(Train) :- has_car(Train, Car1), has_car(Train, Car2), has_car(Train, Car3),
%       (load_num(Car1, N1), car_num(Car1, N2), has_wheel0(Car1, N3), N2 < N1, N2 < N3;
%        short(Car1), long(Car2), car_num(Car1, N1), car_color(Car1, A), car_color(Car2, A),
%        has_wheel0(Car2, N2), N1 < N2;
%        car_color(Car1, X), car_color(Car2, Y), car_color(Car3, Z), X \= Y, Y \= Z, Z \= X).
% Car1, Car2, Car3 range over all cars and may coincide. Numbers are Prolog integers, so < compares a
% position with a load or axle count.
% The length network's predicate is car_length/2, not length/2 (concepts car_length_i, not the
% yaml's length_i): length/2 is a ProbLog built-in, and problog refuses a program that defines it.
nn(colour_net, [X], C, [yellow, green, grey, red, blue]) :: colour(X, C).
nn(length_net, [X], L, [short, long]) :: car_length(X, L).
nn(axles_net, [X], A, [2, 3]) :: axles(X, A).
nn(load_num_net, [X], N, [0, 1, 2, 3]) :: load_num(X, N).

% The train: its four cars as a list, front first (car 1 is next to the locomotive), and their positions.
train(train, [c1, c2, c3, c4]).
car_num(c1, 1).
car_num(c2, 2).
car_num(c3, 3).
car_num(c4, 4).
% Every attribute of every car of the train is perceived, whether or not the rule uses it (always
% true; without it problog keeps only derivations that can succeed, and a car the rule can never
% use would be no object). One predicate per attribute keeps each a disjunction of its values.
perceived_cars([]).
perceived_cars([Car|Cars]) :- perceived(Car), perceived_cars(Cars).
perceived(Car) :- seen_colour(Car), seen_length(Car), seen_axles(Car), seen_load_num(Car).
seen_colour(Car) :- colour(Car, _).
seen_length(Car) :- car_length(Car, _).
seen_axles(Car) :- axles(Car, _).
seen_load_num(Car) :- load_num(Car, _).
has_car(Train, Car) :- train(Train, Cars), perceived_cars(Cars), car_in(Car, Cars).
car_in(Car, [Car|_]).
car_in(Car, [_|Cars]) :- car_in(Car, Cars).

% Background predicates the rule uses (load_num/2 is the network's own predicate).
short(Car) :- car_length(Car, short).
long(Car) :- car_length(Car, long).
car_color(Car, Colour) :- colour(Car, Colour).
has_wheel0(Car, N) :- axles(Car, N).

eastbound(Train) :- has_car(Train, Car1), has_car(Train, Car2), has_car(Train, Car3),
    (load_num(Car1, N1), car_num(Car1, N2), has_wheel0(Car1, N3), N2 < N1, N2 < N3;
     short(Car1), long(Car2), car_num(Car1, N1), car_color(Car1, A), car_color(Car2, A),
     has_wheel0(Car2, N2), N1 < N2;
     car_color(Car1, X), car_color(Car2, Y), car_color(Car3, Z), X \= Y, Y \= Z, Z \= X).
query(eastbound(train)).
