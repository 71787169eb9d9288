% Two coins on one image. Imitates DeepProbLog's Coins (ML-KULeuven/deepproblog,
% src/deepproblog/examples/Coins/model.pl): two networks read the same image, one per coin
% (nn/4 with an extra first argument); the game is won when both coins show the same side.
nn(coin_net1, [Img], Side, [heads, tails]) :: coin(1, Img, Side).
nn(coin_net2, [Img], Side, [heads, tails]) :: coin(2, Img, Side).

result(S, S, win).
result(S1, S2, loss) :- \+ result(S1, S2, win).

game(Img, Outcome) :- coin(1, Img, S1), coin(2, Img, S2), result(S1, S2, Outcome).

% a helper no query reaches (the public model has one like it): it calls its list's
% elements as goals, a meta-call
all_hold([]).
all_hold([G | Gs]) :- G, all_hold(Gs).
