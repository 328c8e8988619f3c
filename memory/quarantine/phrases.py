"""The detector's phrase families: the wordings of the attack families, as regular expressions (the first layer,
written from the tuned set and widened since; :mod:`memory.quarantine.mechanisms` is the layer that reads the
mechanism instead of the wording)."""

from __future__ import annotations

import re

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
    rf"|^\s*(?:to\s+)?(?:the\s+)?(?:ai|llm|language model|chatbot|ai agent|ai assistant)s?\s*[,:]\s*\w"
    rf"|^\s*(?:to\s+)?(?:the\s+)?assistants?\s*,\s*\w|^\s*(?:to\s+)?the\s+assistants?\s*:\s*\w"
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
    r"|\b(?:you\s+are\s+(?:now\s+)?|enable\s+|enter\s+|activate\s+|switch\s+to\s+)jailbr(?:eak|oken)\b"
    r"|\bjailbreak\s+mode\b|\bdan mode\b|\bdo anything now\b|\bdeveloper mode\s+(?:enabled|on|activated)\b"
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
    r"silently\s+|just\s+)*(?:approve|auto-?merge|grant|disable|turn off|"
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

# Chat-template tokens (<|im_start|>, <|system|>, <|endoftext|>) open a prompt section when they name a role, are
# followed by one or by an order, or enclose a message; a token named in prose ("<|endoftext|> is GPT-2's separator")
# opens nothing.
_TOKEN = r"(?:<\|[a-z_ ]{2,30}\|>|<(?:start|end)_of_turn>)"
_ROLE = re.compile(
    r"<\|\s*(?:system|assistant|user|developer|tool|ipython|human|ai|model)\s*\|>"
    rf"|{_TOKEN}\s*(?:system|assistant|user|developer|tool|model|human)\b"
    rf"|{_TOKEN}\s*(?:you\b|ignore\b|disregard\b|new instructions|from now on|the assistant)"
    rf"|{_TOKEN}[^<\n]*?(?:\s+\S+){{3,}}[^<]*?{_TOKEN}"
    r"|\[/?(?:inst|sys|system|assistant|user|tool|developer)\]|<</?sys>>"
    r"|</?(?:system|assistant|developer|tool|tool_result|tool_output|function_results?|instructions?|memory|"
    r"memories|context|im_start|im_end|human|ai|prompt|system_prompt|admin)\b[^>]{0,40}>"
    r"|^\s*#{1,6}\s*(?:system|assistant|developer|tool|new instructions|admin)\b"
    r"|^\s*(?:system|developer|tool|function|sys|admin)[ \t]*(?:message|prompt)?[ \t]*:[ \t]*\S"
    r"|^\s*(?:human|ai)\s*:\s*\S"
    r"|\b(?:begin|start|end)\s+(?:of\s+)?(?:the\s+)?(?:system\s+prompt|system\s+message|system\s+instructions|"
    r"instructions|tool\s+output|tool\s+result|user\s+input|untrusted\s+(?:content|input|data)|memory\s+block|"
    r"recorded\s+memories|context\s+block)\b"
    r"|^\s*[=\-*#]{3,}\s*(?:system|instructions?|admin|developer|tool output|end of \w+)\b",
    re.I | re.M)

# A chat-template token *named* in prose or code: after "uses", "like", "e.g." or inside backticks, or followed by what
# it is ("… headers", "and <|end|>"): "Llama 3 uses <|start_header_id|>system<|end_header_id|> headers".
_NAMED_BEFORE = re.compile(r"(?:\b(?:uses?|using|used|like|such as|e\.g\.|i\.e\.|called|named|tokens?|templates?|"
                           r"formats?|markers?|with|and|or|the|its|their|as)\s*[,:]?|[,(`'\"])\s*$", re.I)
_NAMED_AFTER = re.compile(r"^(?:<\|[a-z_ ]{2,30}\|>|<(?:start|end)_of_turn>)*[^\S\n]*"
                          r"(?:[,;)`'\"]|\.(?:\s|$)|and\b|or\b|"
                          r"(?:header|token|marker|separator|delimiter|tag|turn)s?\b|"
                          r"is\b|are\b|as\b)", re.I)


def token_named(text: str, m: re.Match) -> bool:
    """A bare template token (a role named, no message after it) mentioned, not opening a section."""
    token = m.group(0)
    if not token.startswith("<") or "\n" in token or len(token.split()) > 2:
        return False
    line_start = text.rfind("\n", 0, m.start()) + 1
    before = text[line_start:m.start()]
    return before.count("`") % 2 == 1 or bool(_NAMED_BEFORE.search(before) and _NAMED_AFTER.search(text[m.end():]))


_SHELL = r"(?:sudo\s+)?(?:ba|z|k|c|da|tc|fi)?sh\b|python[0-9.]*\b|perl\b|ruby\b|node\b|php\b|iex\b|" \
         r"invoke-expression\b|powershell\b|pwsh\b|source\b"
_REMOTE = re.compile(
    rf"\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|lwp-download|aria2c)\b[^\n|;]{{0,200}}"
    rf"\|\s*(?:{_SHELL})(?!\s+-m\s+json\.tool)(?!\s+-c\s+[\"'][^\"']*json)"
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
                       r"stops?|blocks?|prevents?|detects?|rejects?|"
                       r"avoid|stop|forbid(?:den)?|prohibit(?:ed)?|refuse|warn(?:ed|s)? (?:against|about)|"
                       r"careful with|dangerous|risky|insecure|bad practice)\b[^.\n]{0,40}$", re.I)



# an override quoted as an example ("prompts like 'ignore previous instructions'") is mentioned, not given
_MENTIONED = re.compile(r"(?:\b(?:like|such as|e\.g\.|called|the phrase|the string|prompts?|attacks?|payloads?|du type|"
                        r"comme|tel(?:le)?s? que|wie|etwa|como|tipo|come|zoals|типа|вроде|如)\s*[:,]?"
                        r"\s*['\"“‘«„]\s*)$", re.I)
_POINTER = re.compile(r"\s+(?:in|on|from|at|of)\s+(?:the|this|that|our|my|a)\s+(?:[\w-]+\s+){0,2}?(?:readme|docs?|"
                      r"document|file|page|wiki|guide|manual|ticket|e-?mail|pdf|form|template|section|package|repo)\b",
                      re.I)


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


def phrase_families(text: str, *, tool: bool, strict: bool = False) -> list[str]:
    """The families ``text`` shows; ``strict`` (a transformed view of the text): only the unmistakable ones."""
    found: list[str] = []
    lower = " ".join(text.lower().split())  # the cues' spaces stand for any run of white space
    # "ignore the instructions in the old README" points at a document, not at what the reader was told
    if _FAST["override"].search(text, lower, accept=lambda m: not _POINTER.match(text, m.end())
                                and not _MENTIONED.search(text[:m.start()])):
        found.append("override")
    # a warning against the act is no order to do it ("Never paste the password into Slack")
    if _FAST["directive"].search(text, lower, accept=lambda m: not _negated(text, m.start())) or \
            (tool and _FAST["tool"].search(text, lower)):
        found.append("directive")
    if _FAST["role"].search(text, lower, accept=lambda m: not token_named(text, m)):
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

