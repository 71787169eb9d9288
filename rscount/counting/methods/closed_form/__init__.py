"""`--closed-form`: counts by formulas whose preconditions are checked (backend.py; forms.py)."""
