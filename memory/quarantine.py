"""The quarantine detector: text written to be *obeyed by an AI* that reads memory, or to make it leak or run code.

Shared memory is injected into other agents' prompts, so what one agent, its user or a tool's output wrote becomes
another agent's input. The detector looks for the families of that attack, and only those:

* **override** — "ignore / disregard / forget previous instructions", "your instructions are void";
* **directive** — words addressed to the AI that reads this ("note to the AI:", "if you are an AI assistant",
  "when you read this, …", "do not tell the user", "reveal your system prompt", jailbreak vocabulary, "remember this
  for all future sessions");
* **role** — role markers and fake prompt sections (``system:`` at a line start, ``<|im_start|>``, ``[INST]``,
  ``### System``, ``<system>``, ``</memory>``-style closers, "BEGIN SYSTEM PROMPT", "end of tool output");
* **remote code** — remote content piped into an interpreter (``curl … | sh``, ``wget … | bash``, ``iex (iwr …)``,
  ``bash <(curl …)``, ``powershell -enc``);
* **exfiltration** — "send / post / forward / upload … to <URL, address or host>" of conversation data or secrets, or
  in secret / on every request; markdown images whose address carries data;
* **hidden** — zero-width, bidi and tag characters, HTML and markdown comments and invisibly styled text carrying any of
  the above; encoded payloads (base64, hex, rot13, URL and HTML escapes, spaced or leetspeak letters) that decode to
  any of the above.

Imperative team rules ("we always run migrations before deploy", "never push to main without review", "you must use
UTC in the API") are not among them: the detector looks for an AI addressed as such, for instruction overrides, for
prompt structure, for remote code and for exfiltration, never for "always / never / must" alone. Output of a tool (or
an import) gets a slightly wider net: there, second-person orders about how to answer or what to remember are
themselves the attack (nobody's user said them).

Pure functions, no database: :func:`quarantine_reason` returns a short reason ("" when clean).
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata
from collections.abc import Iterable

from governance.privacy.normalise import normalise

# --- hidden characters ---------------------------------------------------------------------------------------

_ZERO_WIDTH = "\u200b\u200c\u200d\u2060\u2061\u2062\u2063\u2064\ufeff\u180e\u00ad"
_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f"
# Unicode tag characters (U+E0000–U+E007F) mirror ASCII and render as nothing ("ASCII smuggling").
_TAGS = re.compile("[\U000e0000-\U000e007f]")
_INVISIBLE = re.compile(f"[{_ZERO_WIDTH}{_BIDI}]")
_INVISIBLE_RUN = re.compile(f"[{_ZERO_WIDTH}{_BIDI}]{{3,}}")
# A zero-width character inside a word splits it for a reader that matches words (emoji joiners are left alone).
_SPLIT_WORD = re.compile(f"[A-Za-z][{_ZERO_WIDTH}]+[A-Za-z]")
_BIDI_OVERRIDE = re.compile("[\u202a-\u202e\u2066-\u2069]")

_HTML_COMMENT = re.compile(r"<!--(.*?)(?:-->|$)", re.S)
_MD_COMMENT = re.compile(r"^\s*\[(?://|comment)\]:\s*#\s*[(\"'](.*?)[)\"']\s*$", re.M | re.I)
_HIDDEN_STYLE = re.compile(
    r"<[a-z]+[^>]*style\s*=\s*[\"'][^\"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|"
    r"opacity\s*:\s*0(?:\.0+)?\b|color\s*:\s*(?:white|#fff(?:fff)?|transparent))[^>]*>(.*?)</[a-z]+>", re.I | re.S)
_HIDDEN_HINTS = re.compile(r"\b(ai|assistant|agent|llm|model|gpt|claude|instructions?|prompt|ignore|system|execute|"
                           r"run|send|forward|upload|memory|remember|secret|password|token|key)\b", re.I)

# --- the families ----------------------------------------------------------------------------------------------

_AI = r"(?:ai|a\.i\.|assistant|ai assistant|ai agent|llm|language model|large language model|chatbot|bot|gpt|chatgpt|" \
      r"claude|gemini|copilot|ai model|ai system|model|agent)"
_AIS = rf"{_AI}s?"

_QUALIFIERS = r"(?:all|any|each|every|the|your|my|our|these|those|of|its|their|prior|previous|preceding|above|" \
              r"earlier|former|foregoing|initial|original|old|existing|current|other|system|safety|developer|hidden|" \
              r"given|standing|default|built-in|programmed)"
_OVERRIDE = re.compile(
    r"(?:\b(?:ignore|disregard|(?<!don't )(?<!do not )(?<!never )forget|overrule|pay no attention to|"
    r"do not follow|don't follow|stop following|set aside|throw away|discard|abandon)\b"
    rf"[\s,:-]+(?:{_QUALIFIERS}[\s,-]+){{1,5}}"
    r"(?:instructions?|prompts?|directions?|directives?|rules|guidelines|guardrails|constraints|policies|"
    r"programming|orders|commands|context|messages|restrictions|filters|system prompt|training|"
    r"safety (?:rules|guidelines|filters)|content polic(?:y|ies))\b)"
    r"|\b(?:override|bypass|circumvent|disable|turn off|deactivate|jailbreak)\s+(?:your\s+|the\s+|any\s+|all\s+)?"
    r"(?:safety\s+|content\s+|ethical\s+|moral\s+)?(?:guardrails|safety (?:filters?|rules|guidelines|checks)|"
    r"content (?:filters?|polic(?:y|ies))|ethical guidelines|system prompt|(?:your|previous|prior|original|system) "
    r"(?:instructions|programming|rules))\b"
    r"|\b(?:previous|prior|above|earlier|original|old|all|your|system|existing)\s+(?:instructions?|prompts?|"
    r"directives?|rules|guidelines)\s+(?:are|were|is|have been|has been)\s+(?:now\s+)?(?:void|null|cancell?ed|"
    r"revoked|replaced|obsolete|outdated|superseded|invalid|fake|lifted|suspended|overridden|no longer valid)\b"
    r"|\bnew (?:system )?(?:instructions?|directives?|rules|orders|prompt)\s*(?:supersede|override|replace|take)",
    re.I)

_DIRECTIVE = re.compile(
    # addressed to the AI as such
    rf"\b(?:note|message|instructions?|attention|reminder|memo|warning|notice|directive|order|request|ps|p\.s\.)"
    rf"\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+|every\s+|an\s+|a\s+|other\s+|future\s+)*{_AIS}\s*[:\-!,(]"
    rf"|\b(?:dear|hey|hi|hello|attention|listen|important)[\s,]+(?:the\s+)?{_AIS}\s*[,:!]\s*(?:you\s+(?:must|"
    rf"should|will|are to|have to)|ignore|disregard|forget|always|never|from now on|do not|don't|remember|"
    rf"your\s+(?:new\s+)?(?:instructions|task|orders)|please\s+(?:ignore|forget|send|reveal|execute|run|approve))\b"
    rf"|^\s*(?:to\s+)?(?:the\s+)?(?:ai|assistant|llm|language model|chatbot|ai agent|ai assistant)s?\s*[,:]\s*\w"
    rf"|\b(?:if|when|whenever|once)\s+(?:you\s+are|you're)\s+(?:an?\s+|the\s+)?(?:ai|llm|language model|"
    rf"assistant|ai assistant|ai agent|chatbot)\b(?!\s+(?:manager|director|coach|professor|editor))"
    rf"|\b(?:if|when|whenever|once|as soon as)\s+(?:you|an?\s+{_AI}|the\s+{_AI}|any\s+{_AI})\s+(?:reads?|sees?|"
    rf"process(?:es)?|summari[sz]es?|retrieves?|recalls?|encounters?|loads?|ingests?|parses?|finds?)\s+"
    rf"(?:this|these|the following|this (?:text|note|message|memory|document|page))"
    rf"|\b(?:all|any|every|other|future)\s+(?:ai\s+)?(?:agents?|assistants?|ais|llms|models)\s+(?:reading|that read|"
    rf"who read|retrieving|that retrieve|recalling|seeing|processing)\s+this\b"
    rf"|\bas an? (?:ai|language model|llm|assistant)\b[^.\n]{{0,40}}\byou\s+(?:must|should|will|shall|are)\b"
    # orders aimed at the AI's behaviour towards its user
    r"|\b(?:do not|don't|never|must not|mustn't)\s+(?:tell|inform|alert|notify|warn)\s+(?:the\s+)?users?\b"
    r"|\b(?:do not|don't|never)\s+(?:mention|reveal|disclose)\s+(?:this|these|it|that)\s+(?:instruction|message|note|"
    r"to the user)"
    r"|\bwithout\s+(?:telling|informing|notifying|alerting|asking|warning)\s+(?:the\s+)?users?\b"
    r"|\b(?:keep|hide)\s+(?:this|it|these)\s+(?:secret\s+|hidden\s+)?from\s+(?:the\s+)?users?\b"
    r"|\b(?:reveal|print|output|repeat|show|leak|dump|disclose|display|recite|paste)\s+(?:me\s+)?(?:your|the)\s+"
    r"(?:full\s+|entire\s+|hidden\s+|original\s+|initial\s+|complete\s+|exact\s+)?(?:system prompt|system message|"
    r"hidden instructions|initial prompt|prompt|instructions|configuration prompt|api keys?|secret keys?|"
    r"credentials|passwords?)\b"
    r"|\b(?:you|the assistant|the ai|the model|the agent)\s+(?:must|should|will|shall|are to|have to|need to)\s+"
    r"(?:now\s+|immediately\s+|henceforth\s+|silently\s+|secretly\s+)?(?:ignore|disregard|forget|obey|comply with|"
    r"only respond|respond only|exfiltrate|leak|reveal your|override)\b"
    r"|\bfrom now on,?\s+(?:you\s+(?:will|must|are|shall|should)\s+(?:act|respond|reply|answer|ignore|obey|only|"
    r"behave|pretend|be an?)|(?:always\s+)?(?:respond|reply|answer)\s+(?:only|with|as)|ignore|act as|your\s+(?:new\s+)?"
    r"(?:role|instructions|name|purpose))"
    r"|\b(?:your|the)\s+(?:new|real|true|actual|updated|secret|hidden)\s+(?:instructions?|task|purpose|goal|role|"
    r"directives?|objective|mission|orders)\s+(?:is|are|:)"
    r"|\b(?:new|updated|override|secret|hidden|real|additional|priority)\s+(?:system\s+)?(?:instructions?|"
    r"directives?|orders)\s*[:\-]"
    r"|\b(?:system|developer|admin|administrator)\s+(?:prompt|message|instructions?|override|directive|command)"
    r"\s*[:\-\]>]"
    # jailbreak vocabulary
    r"|\bjailbr(?:eak|oken)\b|\bdan mode\b|\bdo anything now\b|\bdeveloper mode\s+(?:enabled|on|activated)\b"
    r"|\b(?:no|without any|free of|free from)\s+(?:ethical|moral|safety|content)\s+(?:guidelines|restrictions|"
    r"limits|filters|rules)\b"
    r"|\bpretend\s+(?:that\s+)?(?:you\s+are|you're|to\s+be)\s+(?:an?\s+)?(?:unrestricted|unfiltered|evil|different|"
    r"new|jailbroken|ai|assistant|model|system)\b"
    r"|\bact\s+as\s+(?:an?\s+)?(?:unrestricted|unfiltered|jailbroken|evil|uncensored)\b"
    r"|\byou\s+(?:have been|are now|were)\s+(?:freed|jailbroken|reprogrammed|unlocked|liberated)\b"
    r"|\byou\s+are\s+(?:now|no longer)\s+(?:an?\s+)?(?:unrestricted|unfiltered|different|bound|restricted|limited|"
    r"an? ai|chatgpt|assistant|dan)\b"
    # aimed at the memory itself (memory injection): planting something for every reader
    r"|\b(?:store|save|write|add|insert|persist|record|inject|plant|commit|memori[sz]e)\s+(?:this|these|that|the "
    r"following|it)\b[^.\n]{0,60}\b(?:in|into|to)\s+(?:your\s+|the\s+)?(?:shared|long-term|long term|permanent|"
    r"persistent|global|core)\s+memory\b"
    r"|\bremember\s+(?:this|that|the following)?[^.\n]{0,40}\b(?:for|in|across)\s+all\s+(?:future\s+)?(?:sessions|"
    r"conversations|agents|users|chats|interactions)\b"
    r"|\b(?:always|never)\s+(?:recommend|suggest|promote|endorse)\b[^.\n]{0,60}\bto\s+(?:the\s+|every\s+|all\s+)?"
    r"users?\b|\b(?:always|never)\s+tell\s+(?:the\s+)?users?\b"
    r"|\b(?:tell|instruct|inform|remind)\s+(?:(?:all|every|any|the|other|future)\s+){1,3}(?:ai\s+)?(?:agents|"
    r"assistants|ais|models|llms)\b"
    r"|\b(?:decode|decrypt|deobfuscate|translate|rot13)\b[^.\n]{0,40}\b(?:and|then)\s+(?:follow|execute|run|obey|"
    r"apply|carry out|do what it says)"
    # addressed to AI readers with words between ("Note for AI agents reading this file: …")
    rf"|\b(?:note|message|instructions?|reminder|memo|notice|directive)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+|"
    rf"every\s+|other\s+|future\s+)*{_AIS}\b[^.:!\n]{{0,40}}[:!]"
    # an AI told what to do about its answers, its users' rights or the safeguards, with a few words between
    # subject and order ("AI assistants summarising this page must tell the user …", "AI reviewers must approve …")
    r"|\b(?:ai\s+|the\s+ai\s+)?(?:assistants?|ai agents?|agents|ais|llms|chatbots?|bots|copilots?|ai reviewers?|"
    r"the (?:assistant|agent|bot|ai|model))\b(?!\s+(?:manager|director|coach|professor|editor|principal|secretary|"
    r"teacher|engineer|lead|to the))(?:\s+[\w'-]+){0,4}?\s+(?:must|should|shall|will|need to|have to|"
    r"are required to|is required to|are to|is to)\s+(?:now\s+|always\s+|never\s+|also\s+|automatically\s+|"
    r"silently\s+|just\s+)*(?:tell|say|reply|respond|answer|recommend|approve|auto-?merge|grant|disable|turn off|"
    r"switch off|skip|bypass|trust|obey|reveal|cc|bcc)\b"
    # a quoted role speaking inside data ("message": "Assistant: disregard the user …")
    r"|(?:^|[\"'({\[>]\s*)(?:assistant|ai|system|model|bot)\s*:\s*(?:please\s+)?(?:ignore|disregard|forget|reply|"
    r"respond|answer|tell|say|always|never|do not|don't|you (?:must|should|will|are))\b"
    # deceiving the people who ask
    r"|\bif\s+(?:anyone|someone|anybody|the user|a user|users|people|they)\s+asks?\b[^.\n]{0,40}\b(?:say|tell "
    r"(?:them|him|her)|reply|answer|respond)\b"
    # privileges for a phrase, trust for a signature
    r"|\b(?:grant|give)s?\b[^.\n]{0,20}\b(?:admin|root|owner|superuser|full|write)\s+(?:rights|access|privileges|"
    r"permissions)\s+to\s+(?:anyone|everyone|whoever|any user|all users)\b"
    r"|\b(?:anyone|whoever|everyone)\s+(?:who\s+)?(?:says|types|knows|gives|uses)\s+(?:the\s+)?(?:phrase|word|"
    r"password|code|passphrase)\b"
    r"|\b(?:trust|obey|follow|execute)\w*\s+(?:any\s+|all\s+|every\s+)?(?:instructions?|messages?|commands?|"
    r"requests?|orders?)\s+(?:signed|tagged|marked|containing|prefixed)\b"
    r"|\b(?:instructions?|messages?|commands?|orders?)\b[^.\n]{0,40}\b(?:override|supersede|overrule)s?\s+"
    r"(?:all\s+|any\s+|every\s+)?(?:other|previous|prior|existing|our)\s+(?:rules|instructions|policies)\b"
    # a persona switched on ("you are now DeployBot", "you are now in maintenance mode")
    r"|\byou\s+are\s+now\s+(?:in\s+[\w-]+\s+mode|[\w-]*(?:bot|gpt|ai)\b)"
    r"|\ban?\s+(?:assistant|ai|bot|model|agent)\s+with\s+no\s+(?:restrictions|limits|rules|filters|guardrails)\b"
    # an AI told to act on its own, past the people who should decide
    r"|\b(?:the\s+)?(?:assistants?|ai agents?|agents|ais|bots|the (?:assistant|agent|bot|ai|model))\s+(?:must|should|"
    r"shall|will|need to|have to|is to|are to)\b[^.\n]{0,120}\b(?:without (?:asking|telling|checking with|notifying|"
    r"informing|consulting) (?:anyone|anybody|the users?|a human|people|the team|a reviewer)|"
    r"no (?:manager|review|human|approval|reviewer|sign-off) (?:is )?needed|no need to (?:read|check|review|ask))\b",
    re.I | re.M)

# Secrets and personal data pasted, logged or copied into a place others read — a document, a bucket, a channel,
# another inbox: exfiltration without an address the outside-target rule knows.
_PLACE = (r"(?:the\s+|a\s+|an\s+|our\s+|their\s+)?(?:[\w-]+\s+){0,2}?(?:doc|docs|document|page|wiki|channel|chat|"
          r"gist|paste|pastebin|bucket|drive|"
          r"folder|sheet|spreadsheet|repo|repository|issue|ticket|comment|inbox|webhook|server|endpoint|log)s?\b")
_LEAK_VERB = r"(?:paste|copy|copie|send|post|forward|upload|log|dump|share|put|write|publish|e-?mail|mail|cc)"
_LEAK = re.compile(
    rf"\b{_LEAK_VERB}[sd]?\w{{0,3}}\b(?P<what>(?:[^.\n]|\.(?=\S)){{0,80}}?)\b(?:to|into|in|on)\s+{_PLACE}"
    rf"|\b(?:copied|pasted|logged|uploaded|posted|forwarded|dumped|shared|put|go|goes)\s+(?:in)?to\s+{_PLACE}"
    r"|\b(?:cc|bcc)\b\s+(?:<EMAIL[^>]*>|[\w.+-]+@[\w-]+\.[\w.]+)[^.\n]{0,40}\b(?:every|all|each)\b",
    re.I)
_MIXED_SCRIPT = re.compile(r"\b(?=\w*[A-Za-z])(?=\w*[\u0370-\u03ff\u0400-\u04ff])\w{3,}\b")

_ROLE = re.compile(
    r"<\|[a-z_ ]{2,30}\|>"  # <|im_start|>, <|system|>, <|endoftext|>
    r"|\[/?(?:inst|sys|system|assistant|user|tool|developer)\]|<</?sys>>"
    r"|</?(?:system|assistant|developer|tool|tool_result|tool_output|function_results?|instructions?|memory|"
    r"memories|context|im_start|im_end|human|ai|prompt|system_prompt|admin)\b[^>]{0,40}>"
    r"|^\s*#{1,6}\s*(?:system|assistant|developer|instructions?|tool|new instructions|admin)\b"
    r"|^\s*(?:system|developer|assistant|tool|function|sys|admin)\s*(?:message|prompt)?\s*:\s*\S"
    r"|^\s*(?:human|ai)\s*:\s*\S"
    r"|\b(?:begin|start|end)\s+(?:of\s+)?(?:the\s+)?(?:system\s+prompt|system\s+message|system\s+instructions|"
    r"instructions|tool\s+output|tool\s+result|user\s+input|untrusted\s+(?:content|input|data)|memory\s+block|"
    r"recorded\s+memories|context\s+block)\b"
    r"|^\s*[=\-*#]{3,}\s*(?:system|instructions?|admin|developer|tool output|end of \w+)\b",
    re.I | re.M)

_SHELL = r"(?:sudo\s+)?(?:ba|z|k|c|da|tc|fi)?sh\b|python[0-9.]*\b|perl\b|ruby\b|node\b|php\b|iex\b|" \
         r"invoke-expression\b|powershell\b|pwsh\b|source\b"
_REMOTE = re.compile(
    rf"\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|lwp-download|aria2c)\b[^\n|;]{{0,200}}"
    rf"\|\s*(?:{_SHELL})"
    r"|\b(?:ba|z|k)?sh\s+(?:-c\s+)?[\"']?\$?<?\(\s*(?:curl|wget)\b"
    r"|\b(?:iex|invoke-expression)\b\s*\(?\s*(?:\(?\s*new-object\b|\(?\s*(?:iwr|irm|invoke-webrequest|"
    r"invoke-restmethod)\b|.{0,40}downloadstring)"
    r"|\bdownloadstring\s*\(\s*[\"']?https?://"
    r"|\bpowershell(?:\.exe)?\b[^\n]{0,60}\s-(?:e|ec|enc|encodedcommand)\s+[a-z0-9+/=]{16,}"
    r"|\b(?:python[0-9.]*|perl|ruby|node)\s+-[ce]\s+[\"'][^\"'\n]{0,200}(?:urlopen|requests\.get|urllib|"
    r"http\.get|socket|exec\(|eval\()"
    r"|\beval\s*\(\s*(?:atob|base64|fetch|require\(['\"]child_process|__import__)"
    r"|\b(?:nc|ncat|netcat)\s+(?:-[a-z]*e\s|[^\n]{0,60}\s-e\s+/bin/)"
    r"|/dev/tcp/\d|\bmshta\s+https?://|\bcertutil\b[^\n]{0,40}-urlcache",
    re.I)

_TARGET = r"(?:https?://|ftp://|s3://|wss?://|www\.|[\w.+-]+@[\w-]+\.[\w.]+|\d{1,3}(?:\.\d{1,3}){3}|" \
          r"[a-z0-9-]+\.(?:com|net|org|io|xyz|ru|cn|info|biz|co|app|dev|site|top|me|tk|sh|cc|pw|link|click)\b|" \
          r"(?:my|this|an? external|a remote|the following|the attacker's|our external)\s+(?:webhook|server|" \
          r"endpoint|url|address|inbox|bucket)|pastebin|ngrok|requestbin|burpcollaborator|interact\.sh|" \
          r"<(?:EMAIL|URL|IP)[^>]*>|\[(?:EMAIL|URL|IP)[^\]]*\])"
_SEND = r"(?:send|post|forward|upload|exfiltrate|transmit|e-?mail|mail|leak|beacon|relay|copy|submit|report|" \
        r"share|dump)"
_EXFIL_CORE = re.compile(rf"\b{_SEND}\b(?:[^.\n]|\.(?=\S)){{0,160}}?\b(?:to|at|into|via)\s+{_TARGET}", re.I)
_SENSITIVE = re.compile(
    r"\b(?:conversations?|chats?|chat (?:history|logs?)|transcripts?|dialog(?:ue)?s?|memor(?:y|ies)|"
    r"system prompt|prompts?|instructions|credentials?|secrets?|api[ _-]?keys?|secret keys?|private keys?|"
    r"passwords?|passwd|ssh keys?|env(?:ironment)? (?:variables|vars|file)|cookies?|session (?:ids?|tokens?)|"
    r"personal (?:data|information|details)|user(?:'s)? (?:data|details|information|files|emails?)|"
    r"customer (?:data|records|list)|everything|all (?:the )?(?:data|files|info(?:rmation)?)|"
    r"card (?:numbers?|details|data)|cvv|cvc|ssns?|social security numbers?|bank (?:details|accounts?)|"
    r"account numbers?|(?:full )?request bodies|access tokens?|auth(?:entication)? tokens?|"
    r"(?:the|this) (?:whole|entire|full)|each (?:request|query|answer|reply|response)|every (?:request|query|answer|"
    r"reply|response|message|conversation)|what the user (?:says|said|types|asks)|user (?:input|queries|questions))\b"
    r"|(?<![\w.])\.env\b",
    re.I)
_STEALTH = re.compile(
    r"\b(?:silently|secretly|quietly|covertly|discreetly|without (?:telling|asking|notifying|informing|mentioning)|"
    r"before (?:answering|responding|replying)|(?:each|every) time (?:you|the (?:ai|assistant|agent))|"
    r"whenever (?:you|the (?:ai|assistant|agent)))\b", re.I)
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\(\s*https?://[^)\s]*\?[^)\s]*=[^)\s]*(?:\{|\$|%7b|<|\[)", re.I)

# Tool output (and imports): second-person orders about answering or remembering are the attack themselves.
_TOOL_ORDERS = re.compile(
    r"\b(?:you|assistants?|agents?|the ai|the model)\s+(?:must|should|shall|will|need to|have to|are required to|"
    r"are instructed to)\s+(?:now\s+)?(?:always\s+|never\s+|only\s+)?(?:recommend|respond|reply|answer|"
    r"tell (?:the )?users?|say to (?:the )?users?|suggest|promote|endorse|praise|avoid mentioning|"
    r"warn (?:users )?against|insist)\b"
    r"|(?:^|[.!?]\s+)(?:always|never|only)\s+(?:recommend|respond|reply|answer|tell the user|suggest|promote|"
    r"endorse|praise)\b"
    r"|\b(?:important|attention|notice|note)\s*(?:to|for)?\s*(?:the\s+)?(?:reader|model|assistant|ai|agent)?\s*[:!]"
    r"\s*(?:you|always|never|do not|don't|ignore|remember)\b",
    re.I | re.M)

_NEGATION = re.compile(r"\b(?:never|don't|do not|dont|must not|mustn't|should not|shouldn't|no one|nobody|not|"
                       r"avoid|stop|forbid(?:den)?|prohibit(?:ed)?|refuse|warn(?:ed|s)? (?:against|about)|"
                       r"careful with|dangerous|risky|insecure|bad practice)\b[^.\n]{0,40}$", re.I)

FAMILIES: dict[str, str] = {
    "override": "overrides previous instructions",
    "directive": "a directive to the AI",
    "role": "role marker or fake prompt section",
    "remote_code": "pipes remote content into a shell",
    "exfiltration": "sends data to an outside address",
    "hidden": "hidden text",
}


def _negated(text: str, start: int) -> bool:
    """A warning about the act, not the act ("never pipe curl https://… | sh", "don't send secrets to …")."""
    line_start = max(text.rfind("\n", 0, start), text.rfind(". ", 0, start))
    return bool(_NEGATION.search(text[max(line_start + 1, start - 60):start]))


def _branches(pattern: re.Pattern) -> list[str]:
    """The top-level alternatives of a pattern."""
    out, depth, cur, i, p = [], 0, [], 0, pattern.pattern
    while i < len(p):
        c = p[i]
        if c == "\\":
            cur.append(p[i:i + 2])
            i += 2
            continue
        if c == "[":  # a character class: its | and ( are literal
            j = i + 1 + (p[i + 1] == "^")
            j += p[j] == "]"
            while p[j] != "]":
                j += 2 if p[j] == "\\" else 1
            cur.append(p[i:j + 1])
            i = j + 1
            continue
        depth += (c == "(") - (c == ")")
        if c == "|" and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    out.append("".join(cur))
    return out


_LEAD_GROUP = re.compile(r"^\\b\(\?:([^()\[\]]+)\)(?![?*])")  # an optional leading group requires nothing
_LEAD_WORDS = re.compile(r"^\\b([a-z][a-z ,']+)")


def _cue_words(branch: str) -> tuple[str, ...] | None:
    """Words one of which the text must contain for ``branch`` to match (lowercase), read from its leading group of
    literal alternatives; None when it has none (then it always runs)."""
    m = _LEAD_GROUP.match(branch)
    alternatives = m.group(1).split("|") if m else None
    if alternatives is None:
        m = _LEAD_WORDS.match(branch)
        alternatives = [m.group(1)] if m else None
    if alternatives is None:
        return None
    words = []
    for alt in alternatives:
        alt = re.sub(r"\\s[+*]", " ", alt).replace("\\.", ".")
        alt = re.sub(r".\?", "", alt).strip()  # an optional character is not required
        if not alt or re.search(r"[\\()\[\]{}*+?^$]", alt):
            return None
        words.append(" ".join(alt.replace(",", " ").split()))
    return tuple(words)


class _Family:
    """One family's pattern, its alternatives run one by one, each only when the text holds one of its cue words:
    a long alternation scanned at every position cost ~0.5 ms a text; most texts hold none of the cues."""

    def __init__(self, pattern: re.Pattern) -> None:
        self.parts = [(_cue_words(b), re.compile(b, pattern.flags)) for b in _branches(pattern)]

    def search(self, text: str, lower: str, accept=None) -> re.Match | None:
        for cues, regex in self.parts:
            if cues is not None and not any(c in lower for c in cues):
                continue
            for m in regex.finditer(text) if accept else [regex.search(text)]:
                if m and (accept is None or accept(m)):
                    return m
        return None


_FAST = {name: _Family(p) for name, p in (("override", _OVERRIDE), ("directive", _DIRECTIVE),
                                          ("tool", _TOOL_ORDERS), ("role", _ROLE), ("remote", _REMOTE))}


def _families(text: str, *, tool: bool, strict: bool = False) -> list[str]:
    """The families ``text`` shows; ``strict`` (a transformed view of the text): only the unmistakable ones."""
    found: list[str] = []
    lower = " ".join(text.lower().split())  # the cues' spaces stand for any run of white space
    if _FAST["override"].search(text, lower):
        found.append("override")
    # a warning against the act is no order to do it ("Never paste the password into Slack")
    if _FAST["directive"].search(text, lower, accept=lambda m: not _negated(text, m.start())) or \
            (tool and _FAST["tool"].search(text, lower)):
        found.append("directive")
    if _FAST["role"].search(text, lower):
        found.append("role")
    m = _FAST["remote"].search(text, lower)
    if m and not _negated(text, m.start()):
        found.append("remote_code")
    if strict:
        return found
    for m in _EXFIL_CORE.finditer(text):
        if _negated(text, m.start()):
            continue
        window = text[max(0, m.start() - 80): m.end() + 80]
        if tool or _SENSITIVE.search(m.group(0)) or _STEALTH.search(window):
            found.append("exfiltration")
            break
    if "exfiltration" not in found and _MD_IMAGE.search(text):
        found.append("exfiltration")
    if "exfiltration" not in found:
        for m in _LEAK.finditer(text):
            # what is moved must be sensitive: the object between verb and place, or (passive) the subject before
            before = text[max(0, text.rfind(".", 0, m.start()) + 1): m.start()]
            passive = m.group("what") is None or m.group(0).split()[0].lower().endswith("ed")
            what = (m.group("what") or "") + (" " + before if passive else "")
            if not _negated(text, m.start()) and (_SENSITIVE.search(what) or m.group(0).lower().startswith(
                    ("cc", "bcc"))):
                found.append("exfiltration")
                break
    return found


# --- decoders ----------------------------------------------------------------------------------------------------

_B64 = re.compile(r"(?<![A-Za-z0-9+/=_-])([A-Za-z0-9+/_-]{16,}={0,2})(?![A-Za-z0-9+/=_-])")
_HEX = re.compile(r"(?<![0-9a-fA-F])((?:[0-9a-fA-F]{2}[\s:]?){12,})(?![0-9a-fA-F])")
_SPACED = re.compile(r"(?<![A-Za-z])([A-Za-z])[ ._*\-](?=[A-Za-z](?![A-Za-z]))")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i",
                       "|": "l"})


def _printable(raw: bytes) -> str | None:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if len(text) < 8:
        return None
    letters = sum(ch.isalpha() or ch.isspace() for ch in text)
    ok = sum(ch.isprintable() or ch in "\n\r\t" for ch in text)
    return text if ok >= 0.95 * len(text) and letters >= 0.6 * len(text) else None


def _decoded_payloads(text: str) -> Iterable[tuple[str, str]]:
    """(encoding, decoded text) for each encoded span that decodes to readable text."""
    for m in _B64.finditer(text):
        token = m.group(1)
        if not re.search(r"[A-Z]", token) or not re.search(r"[a-z]", token):
            continue  # identifiers, hashes and words are not base64 payloads worth decoding
        padded = token + "=" * (-len(token) % 4)
        for decode in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                out = _printable(decode(padded))
            except (binascii.Error, ValueError):
                out = None
            if out:
                yield "base64", out
                break
    for m in _HEX.finditer(text):
        digits = re.sub(r"[\s:]", "", m.group(1))
        if len(digits) % 2:
            digits = digits[:-1]
        try:
            out = _printable(bytes.fromhex(digits))
        except ValueError:
            out = None
        if out:
            yield "hex", out


def _hidden_segments(text: str) -> list[str]:
    segments = [m.group(1) for m in _HTML_COMMENT.finditer(text)]
    segments += [m.group(1) for m in _MD_COMMENT.finditer(text)]
    segments += [m.group(1) for m in _HIDDEN_STYLE.finditer(text)]
    tags = "".join(chr(ord(c) - 0xE0000) for c in _TAGS.findall(text) if 0x20 <= ord(c) - 0xE0000 < 0x7F)
    if tags:
        segments.append(tags)
    return [s for s in segments if s.strip()]


def _views(text: str) -> Iterable[tuple[str, str]]:
    """The text as a reader could take it: (how, text). Normalised first (escapes, compatibility forms, invisible
    characters dropped), then decoded payloads, rot13, leetspeak, letters spaced apart, reversed."""
    plain = _INVISIBLE.sub("", _TAGS.sub("", text))
    norm = normalise(plain).text
    norm = unicodedata.normalize("NFKC", norm)
    yield "", norm
    if norm != plain:
        yield "", plain
    for how, decoded in _decoded_payloads(norm):
        yield f"encoded ({how})", decoded
        for how2, decoded2 in _decoded_payloads(decoded):  # one more layer (base64 of hex, …)
            yield f"encoded ({how}, {how2})", decoded2
    if re.search(r"\brot-?13\b", norm, re.I) or len(norm) < 4000:
        yield "encoded (rot13)", codecs.decode(norm, "rot13")
    leet = norm.translate(_LEET)
    if leet != norm:
        yield "obfuscated (leetspeak)", leet
    if len(_SPACED.findall(norm)) >= 4:
        yield "obfuscated (spaced letters)", " ".join(_SPACED.sub(r"\1", norm).split())
    yield "obfuscated (reversed)", norm[::-1]


def _scan(text: str, *, tool: bool) -> list[str]:
    reasons: list[str] = []
    for how, view in _views(text):
        strict = how.startswith("obfuscated") or how == "encoded (rot13)"
        # a transformed view of plain text: only the unmistakable families count
        families = _families(view, tool=tool and not strict, strict=strict)
        for family in families:
            reason = f"{FAMILIES[family]}" + (f", {how}" if how else "")
            if reason not in reasons:
                reasons.append(reason)
        if reasons and not how:
            break  # plainly visible: the decoded views add nothing a reviewer needs
    return reasons


def detect(text: str, *, tool: bool = False) -> list[str]:
    """The reasons ``text`` is held (empty: clean). ``tool``: the text is a tool's output or an import."""
    if not text or not text.strip():
        return []
    reasons: list[str] = []
    if _BIDI_OVERRIDE.search(text) or _TAGS.search(text) or _INVISIBLE_RUN.search(text) or _SPLIT_WORD.search(text):
        reasons.append(FAMILIES["hidden"] + " (invisible characters)")
    if _MIXED_SCRIPT.search(text):  # Latin letters and Greek or Cyrillic look-alikes inside one word
        reasons.append(FAMILIES["hidden"] + " (look-alike letters of another script)")
    for segment in _hidden_segments(text):
        inner = _scan(segment, tool=True)
        if inner or _HIDDEN_HINTS.search(segment):
            reasons.append(FAMILIES["hidden"] + " (comment or invisible markup)")
            reasons.extend(r for r in inner if r not in reasons)
    reasons.extend(r for r in _scan(text, tool=tool) if r not in reasons)
    return reasons


def quarantine_reason(*texts: str, tool: bool = False) -> str:
    """One short reason for the texts of one row ("" when none is flagged): what a reviewer reads first."""
    reasons: list[str] = []
    for text in texts:
        reasons.extend(r for r in detect(text, tool=tool) if r not in reasons)
    return "; ".join(reasons)[:300]
