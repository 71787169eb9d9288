% Sum of all the digits of a list of images (a list version of MNIST addition, in the style of
% ML-KULeuven/deepproblog src/deepproblog/examples/MNIST/models/addition.pl; recursion over the
% list, no findall, no library).
nn(mnist_net, [Img], D, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: digit(Img, D).

digit_sum([], 0).
digit_sum([Img | Imgs], S) :- digit(Img, D), digit_sum(Imgs, S0), S is S0 + D.
