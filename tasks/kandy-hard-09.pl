% KANDY Hard curriculum, task 9, as a DeepProbLog program: the twin of tasks/kandy-hard-09.yaml,
% whose hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.2):
%   valid(C) :- shape(SH),
%               forall(contains(C, C1), (contains(C1, C2), extract_shape(C2, SH))).
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).

% The scene: a grid of two groups, g1 with objects o1 and o2, g2 with objects o3 and o4. A perceived
% object has a shape, a color and a size (always true: it reads every attribute, as the perception
% does, whether or not the rule uses it); a group is perceived when its objects are. Each attribute
% is read by a predicate of its own, so that problog grounds it as one disjunction, not as every
% combination of values.
:- use_module(library(lists)).
children(scene, [g1, g2]).
children(g1, [o1, o2]).
children(g2, [o3, o4]).
object(o1). object(o2). object(o3). object(o4).
perceived(O) :- object(O), has_shape(O), has_color(O), has_size(O).
perceived(G) :- children(G, L), all_perceived(L).
has_shape(O) :- shape(O, _).
has_color(O) :- color(O, _).
has_size(O) :- size(O, _).
all_perceived([]).
all_perceived([X|Xs]) :- perceived(X), all_perceived(Xs).

% Background predicates (KANDY appendix 4.5) the rule uses: the domain shape/1 (apart from the
% network's shape/2); forall/2 is problog's built-in, member/2 is library(lists)'s, as in KANDY's
% Prolog. KANDY reads attributes only from an atomic object (shape_props/4 checks atom/1); here that
% is object/1, so groups have none.
shape(triangle). shape(square). shape(circle).
extract_children(C, L) :- children(C, L), all_perceived(L).
contains(C, X) :- extract_children(C, L), member(X, L).
extract_shape(O, SH) :- object(O), shape(O, SH).
% forall/2's second goal is named: problog's call/1 runs no conjunction.
contains_shape(C1, SH) :- contains(C1, C2), extract_shape(C2, SH).

valid(C) :- shape(SH), forall(contains(C, C1), contains_shape(C1, SH)).
query(valid(scene)).
