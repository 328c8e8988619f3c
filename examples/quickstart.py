"""A Python agent in 5 lines: remember a conversation, recall it later.

    RECMEM_API_KEY=rmk_... python examples/quickstart.py      # RECMEM_URL defaults to http://localhost:8000
"""

from recmem_client import RecMem

mem = RecMem()  # RECMEM_URL, RECMEM_API_KEY
with mem.session(external_id="quickstart") as s:
    s.add("I am training for the Berlin marathon in September", "Great, let us plan it.")
print(mem.search("what race am I training for?").context)
