% Burglary and earthquake alarm, from the ProbLog tutorial (Bayesian networks, in its variant
% where each person hears the alarm with some probability): probabilistic facts, probabilistic
% clauses (each one an independent choice), and evidence/2 on who calls.
person(john).
person(mary).

0.7::burglary.
0.2::earthquake.

0.9::alarm :- burglary, earthquake.
0.8::alarm :- burglary, \+ earthquake.
0.1::alarm :- \+ burglary, earthquake.

0.7::hears(X) :- person(X).

calls(X) :- alarm, hears(X).

evidence(calls(john), true).
evidence(calls(mary), false).

query(burglary).
query(earthquake).
