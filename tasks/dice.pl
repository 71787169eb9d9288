% Two dice, from the ProbLog tutorial (annotated disjunctions; the tutorial's dice example):
% a fair die a, a biased die b (0.15 for one to five, 0.25 for six). Each throw is one
% annotated disjunction, whose probabilities sum to 1 (no "none" value).
1/6::one_a; 1/6::two_a; 1/6::three_a; 1/6::four_a; 1/6::five_a; 1/6::six_a.
0.15::one_b; 0.15::two_b; 0.15::three_b; 0.15::four_b; 0.15::five_b; 0.25::six_b.

twoSix :- six_a, six_b.

someSix :- six_a.
someSix :- six_b.

query(twoSix).
query(someSix).
