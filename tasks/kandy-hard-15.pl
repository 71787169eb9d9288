% KANDY Hard curriculum, task 15, as a DeepProbLog program: the twin of tasks/kandy-hard-15.yaml,
% whose hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.2):
%   valid(C) :- extract_children(C, L), length(L, N), odd(N), same_color(_, L).
%   valid(C) :- extract_children(C, L), length(L, N), even(N), same_shape(_, L).
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).
nn(present_net, [X], P, [shown, empty]) :: present(X, P).

% The scene: four object slots, left to right; present(O, P) tells whether slot O holds an object
% (shown) or not (empty). The scene's children are the objects of the shown slots, in order; an
% empty slot's other attributes are read (as the perception reads them) but used by no rule. A
% perceived object has a shape, a color, a size and a presence (always true: it reads every
% attribute, as the perception does, whether or not the rule uses it). Each attribute is read by a
% predicate of its own, so that problog grounds it as one disjunction, not as every combination of
% values.
slots(scene, [o1, o2, o3, o4]).
object(o1). object(o2). object(o3). object(o4).
perceived(O) :- object(O), has_shape(O), has_color(O), has_size(O), has_present(O).
has_shape(O) :- shape(O, _).
has_color(O) :- color(O, _).
has_size(O) :- size(O, _).
has_present(O) :- present(O, _).
all_perceived([]).
all_perceived([X|Xs]) :- perceived(X), all_perceived(Xs).
shown([], []).
shown([O|Os], [O|L]) :- present(O, shown), shown(Os, L).
shown([O|Os], L) :- present(O, empty), shown(Os, L).

% Background predicates (KANDY appendix 4.5) the rule uses; length/2 is problog's built-in. KANDY
% reads attributes only from an atomic object (shape_props/4 checks atom/1); here that is object/1.
extract_children(C, L) :- slots(C, Os), all_perceived(Os), shown(Os, L).
extract_shape(O, SH) :- object(O), shape(O, SH).
extract_color(O, CO) :- object(O), color(O, CO).
same_shape(SH, [H]) :- extract_shape(H, SH).
same_shape(SH, [H|T]) :- extract_shape(H, SH), same_shape(SH, T).
same_color(CO, [H]) :- extract_color(H, CO).
same_color(CO, [H|T]) :- extract_color(H, CO), same_color(CO, T).
odd(N) :- N mod 2 =:= 1.
even(N) :- N mod 2 =:= 0.

valid(C) :- extract_children(C, L), length(L, N), odd(N), same_color(_, L).
valid(C) :- extract_children(C, L), length(L, N), even(N), same_shape(_, L).
query(valid(scene)).
