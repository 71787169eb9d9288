% MNIST addition as DeepProbLog writes it (rsbench's MNAdd, seed 004): one network classifies every
% digit image into 0-9 (the neural predicate digit/2), and the label is the sum of the two digits.
nn(mnist_net, [X], Y, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: digit(X, Y).
addition(X, Y, Z) :- digit(X, X2), digit(Y, Y2), Z is X2 + Y2.
