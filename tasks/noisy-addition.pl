% Noisy MNIST addition. Imitates DeepProbLog's noisy addition (ML-KULeuven/deepproblog,
% src/deepproblog/examples/MNIST/models/noisy_addition.pl): with a learnable probability (t(0.1))
% an example is noisy, and then its label is drawn uniformly from 0-18 (an annotated disjunction
% over the two images, 1/19 each) instead of being the sum of the two digits.
% Given all four choices (noisy, the drawn label, the two digits) the label is a function of them;
% given only the two digits it is not (see noisy-addition.yaml).
nn(mnist_net, [Img], D, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: digit(Img, D).

t(0.1) :: noisy.

1/19::drawn(X, Y, 0); 1/19::drawn(X, Y, 1); 1/19::drawn(X, Y, 2); 1/19::drawn(X, Y, 3);
1/19::drawn(X, Y, 4); 1/19::drawn(X, Y, 5); 1/19::drawn(X, Y, 6); 1/19::drawn(X, Y, 7);
1/19::drawn(X, Y, 8); 1/19::drawn(X, Y, 9); 1/19::drawn(X, Y, 10); 1/19::drawn(X, Y, 11);
1/19::drawn(X, Y, 12); 1/19::drawn(X, Y, 13); 1/19::drawn(X, Y, 14); 1/19::drawn(X, Y, 15);
1/19::drawn(X, Y, 16); 1/19::drawn(X, Y, 17); 1/19::drawn(X, Y, 18).

% the observed label: the drawn one on a noisy example, the true sum otherwise
noisy_addition(X, Y, Z) :- noisy, drawn(X, Y, Z).
noisy_addition(X, Y, Z) :- \+ noisy, digit(X, DX), digit(Y, DY), Z is DX + DY.

% the noise-free sum (not queried by the task)
addition(X, Y, Z) :- digit(X, DX), digit(Y, DY), Z is DX + DY.
