"""Conversations shared by tests: small, hand-written, with a known outcome."""

# One topic recurring five times (θ_count for MiniLM): one consolidation batch, an episode and typed experiences.
MARATHON = [
    ("I'm training for the Berlin marathon in September. Can you make me a marathon training plan?",
     "Sure, here is a 16-week marathon training plan with three runs a week and a long run on Sundays."),
    ("For my marathon plan, how long should this Sunday's long run be?",
     "In week 3 of your marathon plan the long run is 18 km at an easy pace."),
    ("My knee hurts after the long run in my marathon training. Should I change the plan?",
     "Take two rest days, then resume the marathon plan with a shorter long run."),
    ("What should I eat before the long runs in my marathon training plan?",
     "Before long marathon training runs eat oatmeal and a banana two hours ahead."),
    ("I prefer to do my marathon training runs in the early morning before work.",
     "Morning runs fit your marathon plan; do the long run early on Sunday."),
]
