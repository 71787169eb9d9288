% Handwritten formulas (HWF), with division. Imitates DeepProbLog's HWF
% (ML-KULeuven/deepproblog, src/deepproblog/examples/HWF/model.pl): a formula is a list of
% symbol images alternating digit, operator, digit, ...; two networks (nn/4) classify digits
% and operators; the label is the value of the formula with the usual precedence (* and / before
% + and -, each left to right), as a float. Dividing by zero fails: such a formula has no value.
nn(digit_net, [Img], N, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) :: digit_sym(Img, N).
nn(op_net, [Img], Op, [+, -, *, /]) :: op_sym(Img, Op).

symbols([Img], [N]) :- digit_sym(Img, N).
symbols([Img1, Img2 | Imgs], [N, Op | Syms]) :-
    digit_sym(Img1, N),
    op_sym(Img2, Op),
    symbols(Imgs, Syms).

additive(+).
additive(-).

% a product or quotient of digits, folded from the left; Rest is what follows it
factor_run([], Acc, Acc, []).
factor_run([Op | Syms], Acc, Acc, [Op | Syms]) :- additive(Op).
factor_run([*, N | Syms], Acc, V, Rest) :- Acc2 is Acc * N, factor_run(Syms, Acc2, V, Rest).
factor_run([/, N | Syms], Acc, V, Rest) :- N =\= 0, Acc2 is Acc / N, factor_run(Syms, Acc2, V, Rest).

term_value([N | Syms], V, Rest) :- factor_run(Syms, N, V, Rest).

% the terms, added or subtracted from the left
sum_run([], Acc, Acc).
sum_run([+ | Syms], Acc, V) :- term_value(Syms, T, Rest), Acc2 is Acc + T, sum_run(Rest, Acc2, V).
sum_run([- | Syms], Acc, V) :- term_value(Syms, T, Rest), Acc2 is Acc - T, sum_run(Rest, Acc2, V).

formula(Imgs, V) :-
    symbols(Imgs, Syms),
    term_value(Syms, T, Rest),
    sum_run(Rest, T, V0),
    V is float(V0).
