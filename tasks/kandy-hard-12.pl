% KANDY Hard curriculum, task 12, as a DeepProbLog program: the twin of tasks/kandy-hard-12.yaml,
% whose hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.2):
%   valid(C) :- extract_children(C, L), reverse(L, L).
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).

% The scene: four objects, left to right. A perceived object has a shape, a color and a size (always
% true: it reads every attribute, as the perception does, whether or not the rule uses it). Each
% attribute is read by a predicate of its own, so that problog grounds it as one disjunction, not as
% every combination of values.
children(scene, [o1, o2, o3, o4]).
object(o1). object(o2). object(o3). object(o4).
perceived(O) :- object(O), has_shape(O), has_color(O), has_size(O).
has_shape(O) :- shape(O, _).
has_color(O) :- color(O, _).
has_size(O) :- size(O, _).
all_perceived([]).
all_perceived([X|Xs]) :- perceived(X), all_perceived(Xs).

% Background predicates (KANDY appendix 4.5) the rule uses; reverse/2 is written out, not taken from
% library(lists) (its reverse/2 would clash). In KANDY an object is the atom naming its attributes
% (circle_red_small), so reverse(L, L) holds when facing objects have the same shape, color and
% size. Here objects are the inputs o1..o4, so reverse/2 compares the reversed list with its second
% argument object by object on those attributes (same_symbol/2), not by identity.
extract_children(C, L) :- children(C, L), all_perceived(L).
extract_shape(O, SH) :- object(O), shape(O, SH).
extract_color(O, CO) :- object(O), color(O, CO).
extract_size(O, SZ) :- object(O), size(O, SZ).
same_shape(SH, [H]) :- extract_shape(H, SH).
same_shape(SH, [H|T]) :- extract_shape(H, SH), same_shape(SH, T).
same_color(CO, [H]) :- extract_color(H, CO).
same_color(CO, [H|T]) :- extract_color(H, CO), same_color(CO, T).
same_size(SZ, [H]) :- extract_size(H, SZ).
same_size(SZ, [H|T]) :- extract_size(H, SZ), same_size(SZ, T).
reverse(L, R) :- reverse(L, [], R1), same_symbols(R1, R).
reverse([], A, A).
reverse([H|T], A, R) :- reverse(T, [H|A], R).
same_symbols([], []).
same_symbols([X|Xs], [Y|Ys]) :- same_symbol(X, Y), same_symbols(Xs, Ys).
same_symbol(X, Y) :- same_shape(_, [X, Y]), same_color(_, [X, Y]), same_size(_, [X, Y]).

valid(C) :- extract_children(C, L), reverse(L, L).
query(valid(scene)).
