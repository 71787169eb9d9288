% Forth-style bubble sort of three images. Imitates the DeepProbLog Forth sort sketch
% (ML-KULeuven/deepproblog, src/deepproblog/examples/Forth/Sort/compare.pl): a network (nn/4 with
% TWO inputs) decides for an ordered pair of items whether to swap them; a bubble pass carries
% the larger item to the end; passes repeat on the rest. The label is the sorted list of the
% items (image names). Which pairs are compared depends on earlier decisions.
nn(swap_net, [X, Y], Decision, [no_swap, swap]) :: swap(X, Y, Decision).

order_pair(X, Y, X, Y) :- swap(X, Y, no_swap).
order_pair(X, Y, Y, X) :- swap(X, Y, swap).

% one pass: Max is the item carried to the end, Front the others in their new order
bubble_pass([X], [], X).
bubble_pass([H1, H2 | T], [Low | Front], Max) :-
    order_pair(H1, H2, Low, High),
    bubble_pass([High | T], Front, Max).

passes([], Done, Done).
passes(Items, Done, Sorted) :-
    bubble_pass(Items, Front, Max),
    passes(Front, [Max | Done], Sorted).

forth_sort(Items, Sorted) :- passes(Items, [], Sorted).
