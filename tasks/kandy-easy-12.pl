% KANDY Easy curriculum, task 12, as a DeepProbLog program: the twin of tasks/kandy-easy-12.yaml, whose
% hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.1):
%   valid(C) :- extract_children(C, L), last(L, C1), member(C2, L),
%               extract_shape(C1, triangle), extract_color(C1, red), extract_color(C2, blue).
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).

% The scene: four objects, left to right, so last/2 picks o4; member/2 ranges over all four. A
% perceived object has a shape, a color and a size (always true: it reads every attribute, as the
% perception does, whether or not the rule uses it).
:- use_module(library(lists)).
children(scene, [o1, o2, o3, o4]).
% (One predicate per attribute keeps each a disjunction of its values; a conjunction of the
% attributes would ground every combination of values.)
perceived(O) :- seen_shape(O), seen_color(O), seen_size(O).
seen_shape(O) :- shape(O, _).
seen_color(O) :- color(O, _).
seen_size(O) :- size(O, _).
all_perceived([]).
all_perceived([O|Os]) :- perceived(O), all_perceived(Os).

% Background predicates (KANDY appendix 4.5) the rule uses; member/2 is library(lists)'s, as in
% KANDY's Prolog, and so is last/2.
extract_children(C, L) :- children(C, L), all_perceived(L).
extract_shape(O, S) :- shape(O, S).
extract_color(O, C) :- color(O, C).

valid(C) :- extract_children(C, L), last(L, C1), member(C2, L),
    extract_shape(C1, triangle), extract_color(C1, red), extract_color(C2, blue).
query(valid(scene)).
