"""Conversations shared by tests: small, hand-written, with a known outcome."""

# One topic recurring five times (θ_count for MiniLM): one consolidation batch, an episode and typed experiences.
# The last unit is ≥ 0.57 similar to each of the others (θ_sim 0.55) under any time stamp of 2026-2028 in its
# embedded form: the stamp's digits move these similarities by ±0.02, and at 0.545 the topic failed to ripen on
# some days.
MARATHON = [
    ("I'm training for the Berlin marathon in September. Can you make me a marathon training plan?",
     "Sure, here is a 16-week marathon training plan with three runs a week and a long run on Sundays."),
    ("For my marathon plan, how long should this Sunday's long run be?",
     "In week 3 of your marathon plan the long run is 18 km at an easy pace."),
    ("My knee hurts after the long run in my marathon training. Should I change the plan?",
     "Take two rest days, then resume the marathon plan with a shorter long run."),
    ("What should I eat before the long runs in my marathon training plan?",
     "Before long marathon training runs eat oatmeal and a banana two hours ahead."),
    ("I prefer to do my marathon training runs, the long run too, in the early morning before work.",
     "Morning runs fit your marathon plan; do the long run early on Sunday."),
]

# The marathon topic in two waves: the first makes the topic ripe (one batch), the second adds to it and changes a
# preference (morning → evening runs), so the second batch supersedes the old preference.
MARATHON_WAVE_1 = MARATHON
MARATHON_WAVE_2 = [
    ("I now prefer to do my marathon training runs in the evening after work instead of the morning.",
     "Evening runs are fine for your marathon plan; keep the long run on Sunday."),
    ("Week 6 of my marathon training plan: the long run felt easy at 24 km.",
     "Great progress on your marathon plan; next Sunday's long run is 26 km."),
    ("Should my marathon training plan include speed work on Tuesdays?",
     "Yes, add 6 x 800 m intervals on Tuesdays to your marathon training plan."),
    ("My marathon plan says taper for three weeks. What does tapering mean?",
     "Tapering in a marathon plan means cutting weekly distance before race day."),
    ("How should I adjust my marathon training plan for the race week?",
     "In race week of your marathon plan run short and easy, and rest two days before."),
]

# Unrelated one-off questions, to sit between the marathon units without making any topic ripe.
CHATTER = [
    ("What's a good name for a grey kitten?", "How about Smokey or Ash?"),
    ("Can you recommend a sci-fi novel?", "Try 'The Left Hand of Darkness' by Ursula K. Le Guin."),
    ("How do I descale my coffee machine?", "Run a vinegar and water solution through it, then rinse twice."),
]
ONE_OFF = ("What is the capital of Australia?", "Canberra.")
