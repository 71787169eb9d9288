% Multi-digit MNIST addition, digits 0-1 (small variant for the brute force).
% Imitates DeepProbLog's multi_addition/3 (ML-KULeuven/deepproblog,
% src/deepproblog/examples/MNIST/models/addition.pl): one network (nn/4) classifies every digit
% image; a number is a list of digit images, most significant first, read with an accumulator;
% the label is the sum of the two numbers (always base 10, whatever digits the network knows).
nn(mnist_net, [Img], D, [0, 1]) :: digit(Img, D).

read_number([], Value, Value).
read_number([Img | Imgs], Acc, Value) :-
    digit(Img, D),
    Acc2 is 10 * Acc + D,
    read_number(Imgs, Acc2, Value).

number_value(Imgs, Value) :- read_number(Imgs, 0, Value).

multi_addition(Xs, Ys, Sum) :-
    number_value(Xs, X),
    number_value(Ys, Y),
    Sum is X + Y.
