% Any-sum over a bag of image pairs. Imitates DeepProbLog's anysum/2 (ML-KULeuven/deepproblog,
% src/deepproblog/examples/MNIST/models/any_sum.pl): R is a sum of SOME pair of the bag, so a
% query with R unbound has one answer per distinct pair sum. Membership is written out here
% (in_bag/2) instead of loading library(lists).
nn(mnist_net, [Img], D, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: digit(Img, D).

pair_sum(X, Y, S) :- digit(X, DX), digit(Y, DY), S is DX + DY.

in_bag(P, [P | _]).
in_bag(P, [_ | Rest]) :- in_bag(P, Rest).

any_sum(Bag, S) :- in_bag([X, Y], Bag), pair_sum(X, Y, S).
