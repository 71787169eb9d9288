% A Markov chain written as ProbLog's tutorial writes one (test 12, holidays): day 0's weather is
% one choice, and each later day's weather is a choice made afresh for every weather of the day
% before, by an annotated disjunction whose body binds a variable no head shows (the day before).
0.5::weather(0, sunny); 0.3::weather(0, cloudy); 0.2::weather(0, rainy).

turn(sunny, cloudy, rainy).
turn(cloudy, rainy, sunny).
turn(rainy, sunny, cloudy).

0.6::weather(Day, W); 0.3::weather(Day, Next); 0.1::weather(Day, After) :-
    Day > 0, Before is Day - 1, turn(W, Next, After), weather(Before, W).
