% Poker with a house card. Imitates DeepProbLog's Poker (ML-KULeuven/deepproblog,
% src/deepproblog/examples/Poker/model.pl): four card images (two per player) are classified
% into four ranks by one network (nn/4); the shared house card is a learnable annotated
% disjunction (t(1/4) each); each player's hand is their two cards plus the house card, the
% best combination of each hand is compared, and the game is won, lost or drawn.
% List helpers are written out (on_hand/2, take_one/3) instead of loading library(lists).
t(1/4)::house(jack); t(1/4)::house(queen); t(1/4)::house(king); t(1/4)::house(ace).

nn(card_net, [Img], R, [jack, queen, king, ace]) :: rank(Img, R).

on_hand(C, [C | _]).
on_hand(C, [_ | T]) :- on_hand(C, T).

take_one(C, [C | T], T).
take_one(C, [H | T], [H | R]) :- take_one(C, T, R).

% the combinations a hand of three ranks can show
combo(Hand, straight(low)) :- on_hand(jack, Hand), on_hand(queen, Hand), on_hand(king, Hand).
combo(Hand, straight(high)) :- on_hand(queen, Hand), on_hand(king, Hand), on_hand(ace, Hand).
combo([R, R, R], three(R)).
combo(Hand, pair(R)) :- take_one(R, Hand, Rest), on_hand(R, Rest).
combo(Hand, high(R)) :- on_hand(R, Hand).

% their order, weakest first
strength(high(jack), 0).
strength(high(queen), 1).
strength(high(king), 2).
strength(high(ace), 3).
strength(pair(jack), 4).
strength(pair(queen), 5).
strength(pair(king), 6).
strength(pair(ace), 7).
strength(three(jack), 8).
strength(three(queen), 9).
strength(three(king), 10).
strength(three(ace), 11).
strength(straight(low), 12).
strength(straight(high), 13).

stronger_combo(Hand, S) :- combo(Hand, C), strength(C, S2), S2 > S.
best_strength(Hand, S) :- combo(Hand, C), strength(C, S), \+ stronger_combo(Hand, S).

verdict(S1, S2, win) :- S1 > S2.
verdict(S1, S2, loss) :- S1 < S2.
verdict(S, S, draw).

hand_of([C0, C1, _, _], own, House, [R0, R1, House]) :- rank(C0, R0), rank(C1, R1).
hand_of([_, _, C2, C3], opponent, House, [R2, R3, House]) :- rank(C2, R2), rank(C3, R3).

game(Cards, Outcome) :-
    house(House),
    hand_of(Cards, own, House, Mine),
    hand_of(Cards, opponent, House, Theirs),
    best_strength(Mine, S1),
    best_strength(Theirs, S2),
    verdict(S1, S2, Outcome).
