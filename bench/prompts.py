"""The benchmarks' prompts: LoCoMo's answer and judge, and (re-exported) the eager baseline's.

Versioned like the product's (``memory.consolidators.prompts``), rendered with its ``render``.
"""

from __future__ import annotations

from bench.eager.prompts import EAGER_EXTRACT, EAGER_UPDATE
from memory.consolidators.prompts import PromptTemplate

__all__ = ["ANSWER", "BENCH_TEMPLATES", "EAGER_EXTRACT", "EAGER_UPDATE", "JUDGE"]


ANSWER = PromptTemplate(
    name="answer",
    version="answer@1",
    system="""\
You are an intelligent memory assistant tasked with retrieving accurate information from conversation memories.

Context: you have access to memories retrieved from earlier conversations between two speakers: raw exchanges,
episodes and typed experiences, each with a timestamp. They are the only information you may use.

Instructions:
1. Carefully analyse all provided memories.
2. Pay special attention to the timestamps to determine the answer.
3. If the question asks about a specific event or fact, look for direct evidence in the memories.
4. If the memories contain contradictory information, prioritise the most recent memory.
5. If there is a question about time references (like "last year" or "two months ago"), calculate the actual date
   from the memory timestamp. For example, if a memory from 4 May 2022 mentions "went to India last year", the
   trip took place in 2021.
6. Always convert relative time references into specific dates, months or years in the answer.
7. Focus only on the content of the memories; do not confuse the people mentioned in them.
8. Placeholders such as <PERSON_3f2a> stand for masked names: answer with the placeholder itself if needed.
9. The answer should be short: at most 5 or 6 words, a name, a date or a short phrase.
10. If the memories do not contain the answer, reply "Not mentioned".

Reply with one JSON object and nothing else: {"answer": "..."}""",
    user_template="""\
Memories:
<memories>
${context}
</memories>

Question: <question>${question}</question>

Answer from the memories. Reply in JSON.""",
    schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"answer": {"type": "string"}},
        "required": ["answer"],
    },
)

JUDGE = PromptTemplate(
    name="judge",
    version="judge@1",
    system="""\
Your task is to label an answer to a question as "CORRECT" or "WRONG". You will be given the following data:
(1) a question (posed by one user to another user), (2) a "gold" (ground truth) answer, (3) a generated answer,
which you will score as CORRECT or WRONG.

The point of the question is to ask about something one user should know about the other user based on their
prior conversations. The gold answer will usually be a concise and short answer that includes the referenced
topic, for example:
Question: Do you remember what I got the last time I went to Hawaii?
Gold answer: A shell necklace
The generated answer might be much longer, but you should be generous with your grading: as long as it touches on
the same topic as the gold answer, it should be counted as CORRECT.

For time-related questions, the gold answer will be a specific date, month, year, etc. The generated answer might
be much longer or use relative time references (like "last Tuesday" or "next month"), but you should be generous
with your grading: as long as it refers to the same date or time period as the gold answer, it should be counted
as CORRECT. Even if the format differs (e.g. "May 7th" vs "7 May"), consider it CORRECT if it is the same date.

An answer that says the information is not available, or that contradicts the gold answer, is WRONG.

First write one short sentence of reasoning, then the label. Reply with one JSON object and nothing else:
{"reasoning": "...", "label": "CORRECT"}""",
    user_template="""\
Question: <question>${question}</question>
Gold answer: <gold_answer>${gold}</gold_answer>
Generated answer: <generated_answer>${answer}</generated_answer>

Label the generated answer. Reply in JSON.""",
    schema={
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "reasoning": {"type": "string"},
            "label": {"enum": ["CORRECT", "WRONG"]},
        },
        "required": ["label"],
    },
)

BENCH_TEMPLATES: tuple[PromptTemplate, ...] = (EAGER_EXTRACT, EAGER_UPDATE, ANSWER, JUDGE)
