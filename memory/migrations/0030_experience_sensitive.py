"""``sensitive`` on experiences: whether the statement is about credentials, access, safeguards, destinations, money or
code to run (memory/trust.py ``sensitive_pattern``, as it stood in round 45: the pattern is written here literally, so a
later change of it is a migration of its own). A stored generated column, so every write path keeps it right and the
search reads one boolean per row (RECMEM_SEARCH_PEER_ITEMS=guarded); reversible (the column is dropped)."""

from django.db import migrations, models

import memory.trust

_PATTERN = (
    '\\y(?:pass(?:word|phrase|wd|code)s?|tokens?|api[\\s-]?keys?|secrets?|credentials?|creds|(?:p'
    'rivate|ssh|signing)[\\s-]keys?|2fa|mfa|otps?|log-?ins?|sign-?ins?|cookies?|approv\\w*|sign-?'
    'offs?|permissions?|access|admins?|administrator\\w*|root(?!\\s+caus)|sudo|superusers?|privil'
    'eg\\w*|rights|grant\\w*|allow-?lists?|whitelist\\w*|exempt\\w*|bypass\\w*|overrid\\w*|waiv\\w*|sk'
    'ip\\w*|disabl\\w*|(?:turn|switch)(?:s|es|ed|ing)?[\\s-]off|no[\\s-]longer[\\s-](?:required|need'
    'ed|necessary)|ignor\\w*|tls|ssl|mtls|pinning|verif\\w*|certs?|certificates?|firewalls?|vpns?'
    '|ports?|csrf|auth(?:entic\\w*|ori[sz]\\w*|n|z)?|signatures?|signed|signing|audit\\w*|encrypt\\'
    'w*|decrypt\\w*|webhooks?|buckets?|upload\\w*|forward(?:s|ed|ing)|mirror\\w*|exfiltrat\\w*|past'
    'e\\w*|public(?:ly)?|ibans?|banks?|banking|salar\\w*|payroll|wire[\\s-]transfers?|refunds?|pay'
    'outs?|ssns?|passports?|e-?mail[\\s-]address\\w*|phone[\\s-]numbers?|home[\\s-]address\\w*|perso'
    'nal[\\s-]data|customer[\\s-](?:lists?|data)|curl|wget|(?:pip|npm|gem|cargo)[\\s-]install|powe'
    'rshell|iex|chmod|binar(?:y|ies)|download\\w*|passwort\\w*|kennw[oö]rt\\w*|zugangsdaten|zugrif'
    'f\\w*|genehmig\\w*|freigabe\\w*|deaktivier\\w*|mots?[\\s-]de[\\s-]passe|identifiants?|accès|appr'
    'ouv\\w*|désactiv\\w*|contraseñas?|acceso|aprob\\w*|desactiv\\w*|senhas?|acesso|aprova\\w*|crede'
    'nziali|accesso|approva\\w*|disattiv\\w*|wachtwoord\\w*|toegang|goedgekeur\\w*|uitgeschakeld|ha'
    'sł\\w*|dostęp\\w*|парол\\w*|доступ\\w*|токен\\w*)\\y|\\y[a-z0-9][a-z0-9-]*(?:\\.[a-z0-9-]+)*\\.(?!('
    '?:a|afm|arff|asc|awk|bat|bin|bsd|build|bz2|c|catalog|cc|cfg|cmake|cmd|cnf|cocci|conf|contr'
    'ol|cp1250|cpp|crt|css|csv|cuh|cxx|d|dat|debian|debug|def|desktop|doctest|dtd|e2x|el|enc|en'
    'v|example|exe|f|f90|ff|gif|gpg|gz|gzip|h|hpp|htm|html|ico|inc|info|ini|its|jar|jmod|jpg|js'
    '|json|key|lang|lark|list|loc|local|lock|log|lzma|m4|manifest|map|md|md5sums|mirrors|mjs|mk'
    '|mod|mount|mplstyle|msg|network|npy|npz|o|onnx|outlang|pb|pc|pdf|pem|ph|php|pkl|pl|pm|png|'
    'po|pod|policy|pom|properties|proto|ps|ps1|ptl|pxd|py|pyc|pyf|pyi|pyx|rst|rules|sample|sav|'
    'service|sh|slice|so|socket|sql|srt|stop|style|svg|t|target|tcc|tcl|td|template|timer|tm|tm'
    'ac|toml|tp|tpl|ts|tsv|ttf|txt|typed|typelib|vim|wants|wav|x|xbn|xe|xml|xn|xpm|xr|xsd|xu|xz'
    '|yaml|yml|zip)\\y)[a-z]{2,24}\\y|[a-z][a-z0-9+.-]*://|\\S@[a-z0-9-]+\\.|\\y\\d{1,3}(?:\\.\\d{1,3})'
    '{3}\\y|<(?:EMAIL|SECRET|IP_ADDRESS|URL)'
)


class Migration(migrations.Migration):

    dependencies = [
        ('memory', '0029_item_source_agent'),
    ]

    operations = [
        migrations.AddField(
            model_name='experience',
            name='sensitive',
            field=models.GeneratedField(
                db_persist=True, expression=memory.trust.SensitiveMatch('statement', _PATTERN),
                output_field=models.BooleanField(),
                verbose_name='about credentials, access, safeguards, destinations, money or code'),
        ),
    ]
