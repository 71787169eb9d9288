% KANDY Easy curriculum, task 14, as a DeepProbLog program: the twin of tasks/kandy-easy-14.yaml, whose
% hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.1): valid(C) :- extract_children(C, L), reverse(L, L).
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).

% The scene: three objects, left to right. A perceived object has a shape, a color and a size (always
% true: it reads every attribute, as the perception does, whether or not the rule uses it; one
% predicate per attribute keeps each a disjunction of its values).
% In KANDY's natural encoding an object is the atom of its attributes (circle_red_small), so
% reverse(L, L) compares objects by shape, color and size. Here the children are the objects, and
% reverse(L, L) reads "L equals its reverse object by object, each pair perceived alike in shape,
% color and size": the same test, written so that grounding compares one attribute at a time
% (unifying whole perceived descriptions grounds all 36^3 description lists: 54 s).
:- use_module(library(lists)).
children(scene, [o1, o2, o3]).
perceived(O) :- seen_shape(O), seen_color(O), seen_size(O).
seen_shape(O) :- shape(O, _).
seen_color(O) :- color(O, _).
seen_size(O) :- size(O, _).
all_perceived([]).
all_perceived([O|Os]) :- perceived(O), all_perceived(Os).
alike(O1, O2) :- shape(O1, S), shape(O2, S), color(O1, C), color(O2, C), size(O1, Z), size(O2, Z).
alike_lists([], []).
alike_lists([O1|Os1], [O2|Os2]) :- alike(O1, O2), alike_lists(Os1, Os2).

% Background predicates (KANDY appendix 4.5) the rule uses; reverse/2 is library(lists)'s, as in
% KANDY's Prolog.
extract_children(C, L) :- children(C, L), all_perceived(L).

valid(C) :- extract_children(C, L), reverse(L, R), alike_lists(L, R).
query(valid(scene)).
