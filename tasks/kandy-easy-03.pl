% KANDY Easy curriculum, task 3, as a DeepProbLog program: the twin of tasks/kandy-easy-03.yaml, whose
% hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.1): valid(C) :- contains(C, C1), extract_color(C1, red).
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).

% The scene: one object. A perceived object has a shape, a color and a size (always true: it reads
% every attribute, as the perception does, whether or not the rule uses it).
object(scene, o1).
% (One predicate per attribute keeps each a disjunction of its values; a conjunction of the
% attributes would ground every combination of values.)
perceived(O) :- seen_shape(O), seen_color(O), seen_size(O).
seen_shape(O) :- shape(O, _).
seen_color(O) :- color(O, _).
seen_size(O) :- size(O, _).
contains(Scene, O) :- object(Scene, O), perceived(O).

% Background predicates (KANDY appendix 4.5.2) the rule uses.
extract_color(O, C) :- color(O, C).

valid(C) :- contains(C, C1), extract_color(C1, red).
query(valid(scene)).
