% KANDY Easy curriculum, task 17, as a DeepProbLog program: the twin of tasks/kandy-easy-17.yaml, whose
% hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects and builds
% its children from the perceived links.
% Rule (KANDY appendix 4.5.2 and 4.6.1):
%   valid(C) :- contains(C, C1), tower(C1).
%   tower(C) :- extract_op_and_chld(C, stack, L), same_shape(square, L), same_size(_, L),
%               length(L, N), N >= 2, N =< 3.
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).
nn(link_net, [X], K, [stack, side_by_side, none]) :: link(X, K).

% The scene: three objects, top to bottom / left to right; link(O, K) is O's relation to the next
% object. A perceived object has a shape, a color, a size and a link (always true: it reads every
% attribute, as the perception does, whether or not the rule uses it).
:- use_module(library(lists)).
objects(scene, [o1, o2, o3]).
% (One predicate per attribute keeps each a disjunction of its values; a conjunction of the
% attributes would ground every combination of values.)
perceived(O) :- seen_shape(O), seen_color(O), seen_size(O), seen_link(O).
seen_shape(O) :- shape(O, _).
seen_color(O) :- color(O, _).
seen_size(O) :- size(O, _).
seen_link(O) :- link(O, _).
all_perceived([]).
all_perceived([O|Os]) :- perceived(O), all_perceived(Os).

% The scene's children: the runs of objects cut after each object whose link is none; the last object
% ends the last run whatever its link. A one-object run is the object itself; a run linked by one
% operator is that operator over its objects, e.g. stack([o1, o2]) (o1 on top); a run with both
% operators is composed(Run), a group of groups that no rule names.
runs([], []).
runs(Os, [Child|Children]) :- run(Os, Run, Links, Rest), child(Run, Links, Child), runs(Rest, Children).
run([O], [O], [], []).
run([O, P|Os], [O], [], [P|Os]) :- link(O, none).
run([O, P|Os], [O|Run], [K|Ks], Rest) :- link(O, K), K \= none, run([P|Os], Run, Ks, Rest).
child([O], [], O).
child(Run, [K|Ks], Child) :- all_same(K, [K|Ks]), Child =.. [K, Run].
child(Run, Ks, composed(Run)) :- member(stack, Ks), member(side_by_side, Ks).

% Background predicates (KANDY appendix 4.5) the rule uses; extract_children/2 of the scene is its
% runs. member/2 is library(lists)'s, as in KANDY's Prolog.
extract_children(C, L) :- objects(C, Os), all_perceived(Os), runs(Os, L).
contains(C, X) :- extract_children(C, L), member(X, L).
extract_op_and_chld(C, COMP, L) :- functor(C, COMP, 1), arg(1, C, L).
extract_shape(O, S) :- shape(O, S).
extract_size(O, Z) :- size(O, Z).
same_shape(SH, [H]) :- extract_shape(H, SH).
same_shape(SH, [H|T]) :- extract_shape(H, SH), same_shape(SH, T).
same_size(SZ, [H]) :- extract_size(H, SZ).
same_size(SZ, [H|T]) :- extract_size(H, SZ), same_size(SZ, T).
all_same(H, [H]).
all_same(H, [H|T]) :- all_same(H, T).
tower(C) :- extract_op_and_chld(C, stack, L), same_shape(square, L), same_size(_, L),
    length(L, N), N >= 2, N =< 3.

valid(C) :- contains(C, C1), tower(C1).
query(valid(scene)).
