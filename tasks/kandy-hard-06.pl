% KANDY Hard curriculum, task 6, as a DeepProbLog program: the twin of tasks/kandy-hard-06.yaml,
% whose hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.2, with 4.5 for the named objects):
%   valid(C) :- contains(C, C1), tower(C1).
%   tower(C) :- extract_op_and_chld(C, stack, L), same_shape(square, L), same_size(_, L),
%       length(L, N), N >= 2, N =< 3.
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).
nn(link_net, [X], K, [stack, side_by_side, none]) :: link(X, K).

% The scene: four objects, top to bottom / left to right as KANDY's trees list children. link(O, K)
% is O's relation to the next object (stack: O is on top of it, side_by_side: it is beside O, none:
% O ends its run). A perceived object has a shape, a color, a size and a link (always true: it reads
% every attribute, as the perception does, whether or not the rule uses it). Each attribute is read
% by a predicate of its own, so that problog grounds it as one disjunction, not as every combination
% of values.
:- use_module(library(lists)).
objects(scene, [o1, o2, o3, o4]).
object(o1). object(o2). object(o3). object(o4).
perceived(O) :- object(O), has_shape(O), has_color(O), has_size(O), has_link(O).
has_shape(O) :- shape(O, _).
has_color(O) :- color(O, _).
has_size(O) :- size(O, _).
has_link(O) :- link(O, _).
all_perceived([]).
all_perceived([X|Xs]) :- perceived(X), all_perceived(Xs).

% The scene's children are the runs of its objects, cut after each object linked to none (the last
% object ends the last run whatever its link): a run of one object is the object itself, a run whose
% links are all stack (all side_by_side) is the composition stack(Run) (side_by_side(Run)), and a
% run mixing both is composed(Run), a group of groups that no named-object rule matches.
% run(Os, Ks, Run, Rest): Run is the run that starts Os, Ks its links, Rest the objects after it.
runs([], []).
runs(Os, [X|Xs]) :- run(Os, Ks, Run, Rest), composition(Run, Ks, X), runs(Rest, Xs).
run([O], [], [O], []).
run([O, P|Os], [], [O], [P|Os]) :- link(O, none).
run([O, P|Os], [K|Ks], [O|Run], Rest) :- link(O, K), K \= none, run([P|Os], Ks, Run, Rest).
composition([O], [], O).
composition(Run, [K|Ks], X) :- all_same(K, [K|Ks]), X =.. [K, Run].
composition(Run, [K|Ks], composed(Run)) :- \+ all_same(K, [K|Ks]).

% Background predicates (KANDY appendix 4.5) the rule uses; length/2 is problog's built-in, member/2
% is library(lists)'s, as in KANDY's Prolog, and all_same/2 is KANDY's, written out. KANDY reads
% attributes only from an atomic object (shape_props/4 checks atom/1); here that is object/1, so
% compositions have none.
extract_children(C, L) :- objects(C, Os), all_perceived(Os), runs(Os, L).
contains(C, X) :- extract_children(C, L), member(X, L).
extract_op_and_chld(C, COMP, L) :- functor(C, COMP, 1), arg(1, C, L).
extract_shape(O, SH) :- object(O), shape(O, SH).
extract_size(O, SZ) :- object(O), size(O, SZ).
same_shape(SH, [H]) :- extract_shape(H, SH).
same_shape(SH, [H|T]) :- extract_shape(H, SH), same_shape(SH, T).
same_size(SZ, [H]) :- extract_size(H, SZ).
same_size(SZ, [H|T]) :- extract_size(H, SZ), same_size(SZ, T).
tower(C) :- extract_op_and_chld(C, stack, L), same_shape(square, L), same_size(_, L),
    length(L, N), N >= 2, N =< 3.
all_same(H, [H]).
all_same(H, [H|T]) :- all_same(H, T).

valid(C) :- contains(C, C1), tower(C1).
query(valid(scene)).
