% KANDY Hard curriculum, task 13, as a DeepProbLog program: the twin of tasks/kandy-hard-13.yaml,
% whose hand-written expression it must match on every concept vector (tests/test_program_twins.py).
% Perception: one network per attribute classifies every object of the scene (the neural predicates
% are the objects mode's attributes); the scene encoding below lists the scene's objects.
% Rule (KANDY appendix 4.6.2):
%   pseudo_palindrome([]).  pseudo_palindrome([_]).
%   pseudo_palindrome(L) :- middle(L,M), pseudo_palindrome(M), last(L,A), first(L,B),
%                           same_shape(_, [A,B]).
%   pseudo_palindrome(L) :- middle(L,M), pseudo_palindrome(M), last(L,A), first(L,B),
%                           same_color(_, [A,B]).
%   valid(C) :- extract_children(C, L), pseudo_palindrome(L).
nn(shape_net, [X], S, [triangle, square, circle]) :: shape(X, S).
nn(color_net, [X], C, [red, green, blue, cyan, magenta, yellow]) :: color(X, C).
nn(size_net, [X], Z, [small, large]) :: size(X, Z).

% The scene: four objects, left to right. A perceived object has a shape, a color and a size (always
% true: it reads every attribute, as the perception does, whether or not the rule uses it). Each
% attribute is read by a predicate of its own, so that problog grounds it as one disjunction, not as
% every combination of values.
:- use_module(library(lists)).
children(scene, [o1, o2, o3, o4]).
object(o1). object(o2). object(o3). object(o4).
perceived(O) :- object(O), has_shape(O), has_color(O), has_size(O).
has_shape(O) :- shape(O, _).
has_color(O) :- color(O, _).
has_size(O) :- size(O, _).
all_perceived([]).
all_perceived([X|Xs]) :- perceived(X), all_perceived(Xs).

% Background predicates (KANDY appendix 4.5) the rule uses; first/2, droplast/2 and middle/2 are
% KANDY's, written out; last/2 is library(lists)'s. KANDY reads attributes only from an atomic object
% (shape_props/4 checks atom/1); here that is object/1.
extract_children(C, L) :- children(C, L), all_perceived(L).
extract_shape(O, SH) :- object(O), shape(O, SH).
extract_color(O, CO) :- object(O), color(O, CO).
same_shape(SH, [H]) :- extract_shape(H, SH).
same_shape(SH, [H|T]) :- extract_shape(H, SH), same_shape(SH, T).
same_color(CO, [H]) :- extract_color(H, CO).
same_color(CO, [H|T]) :- extract_color(H, CO), same_color(CO, T).
first([H|_], H).
droplast([_], []).
droplast([H|T], [H|T2]) :- droplast(T, T2).
middle([_|T], T2) :- droplast(T, T2).

pseudo_palindrome([]).
pseudo_palindrome([_]).
pseudo_palindrome(L) :- middle(L, M), pseudo_palindrome(M), last(L, A), first(L, B),
    same_shape(_, [A, B]).
pseudo_palindrome(L) :- middle(L, M), pseudo_palindrome(M), last(L, A), first(L, B),
    same_color(_, [A, B]).
valid(C) :- extract_children(C, L), pseudo_palindrome(L).
query(valid(scene)).
