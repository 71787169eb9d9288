% Forth-style addition of two 2-digit numbers, column by column with a carry. Imitates the
% DeepProbLog Forth addition sketch (ML-KULeuven/deepproblog,
% src/deepproblog/examples/Forth/Add/choose.pl): two networks (nn/4 with THREE inputs: the two
% digit images of a column and the incoming carry) give the column's result digit and its
% outgoing carry; the columns are processed least significant first by recursing to the end of
% the lists; the answer is [Carry | Digits]. The carry is a network output, so which atoms of the
% second column are reached depends on the first column's carry.
nn(digit_net, [I1, I2, Carry], D, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: result_digit(I1, I2, Carry, D).
nn(carry_net, [I1, I2, Carry], C, [0, 1]) :: carry_out(I1, I2, Carry, C).

column(I1, I2, CarryIn, CarryOut, D) :-
    result_digit(I1, I2, CarryIn, D),
    carry_out(I1, I2, CarryIn, CarryOut).

add_columns([], [], C, C, []).
add_columns([X | Xs], [Y | Ys], CarryIn, CarryOut, [D | Ds]) :-
    add_columns(Xs, Ys, CarryIn, CarryMid, Ds),
    column(X, Y, CarryMid, CarryOut, D).

forth_add(Xs, Ys, CarryIn, [CarryOut | Ds]) :- add_columns(Xs, Ys, CarryIn, CarryOut, Ds).
