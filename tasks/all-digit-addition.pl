% All-digit addition: the sum is an image too. Imitates DeepProbLog's all-digit addition
% (ML-KULeuven/deepproblog, src/deepproblog/examples/MNIST/models/all_digit_addition.pl): the
% query addition(a, b, c) is ground, true when the digit of c is the sum of those of a and b
% (so false whenever that sum is 10 or more).
nn(mnist_net, [Img], D, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: digit(Img, D).

addition(X, Y, Z) :- digit(X, DX), digit(Y, DY), digit(Z, DZ), DZ is DX + DY.
