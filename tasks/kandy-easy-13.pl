% KANDY Easy curriculum, task 13, as a DeepProbLog program: the twin of tasks/kandy-easy-13.yaml, whose
% hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.1):
%   valid(C) :- recursive_contains(C, C1), recursive_contains(C, C2), same_color(_, [C1, C2]),
%               extract_shape(C1, triangle), extract_shape(C2, square).
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).

% The scene: two objects, both atoms (no object has children of its own, so recursive_contains/2 finds
% exactly o1 and o2). A perceived object has a shape, a color and a size (always true: it reads every
% attribute, as the perception does, whether or not the rule uses it).
:- use_module(library(lists)).
children(scene, [o1, o2]).
% (One predicate per attribute keeps each a disjunction of its values; a conjunction of the
% attributes would ground every combination of values.)
perceived(O) :- seen_shape(O), seen_color(O), seen_size(O).
seen_shape(O) :- shape(O, _).
seen_color(O) :- color(O, _).
seen_size(O) :- size(O, _).
all_perceived([]).
all_perceived([O|Os]) :- perceived(O), all_perceived(Os).

% Background predicates (KANDY appendix 4.5) the rule uses; member/2 is library(lists)'s, as in
% KANDY's Prolog.
extract_children(C, L) :- children(C, L), all_perceived(L).
contains(C, X) :- extract_children(C, L), member(X, L).
recursive_contains(C, X) :- contains(C, X), atom(X).
recursive_contains(C, X) :- contains(C, C1), recursive_contains(C1, X).
extract_shape(O, S) :- shape(O, S).
extract_color(O, C) :- color(O, C).
same_color(CO, [H]) :- extract_color(H, CO).
same_color(CO, [H|T]) :- extract_color(H, CO), same_color(CO, T).

valid(C) :- recursive_contains(C, C1), recursive_contains(C, C2), same_color(_, [C1, C2]),
    extract_shape(C1, triangle), extract_shape(C2, square).
query(valid(scene)).
