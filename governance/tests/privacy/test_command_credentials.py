"""Credentials in the grammar of commands and code, where the value has a slot rather than a separator — a setting
named for a credential and its value after a space, a secret piped into a command that reads it, a Terraform
default, a SQL role's password, a PowerShell secure string, htpasswd / net user / Redis AUTH, a UUID named a key —
and the documentation lines with the same words that must stay."""

from __future__ import annotations

import random

import pytest

from bench.canaries import Canaries
from governance.privacy.recognizers import find_secrets

from .secret_checks import covered, secret_spans

PW = Canaries(random.Random(20261237)).password()


SLOTS = [
    f"ENV DB_PASSWORD {PW}",
    f'setx API_SECRET "{PW}"',
    f"setenv SMTP_PASSWORD {PW}",
    f"rclone config create s3 s3 secret_access_key {PW}",
    f"echo '{PW}' | docker login -u deploy --password-stdin registry.example.com",
    f'echo "admin:{PW}" | chpasswd',
    f"printf '{PW}\\n' | sudo -S apt update",
    f"smbpasswd -a alice <<< $'{PW}\\n{PW}'",
    f'variable "db_password" {{ default = "{PW}" }}',
    f"ALTER ROLE app_rw PASSWORD '{PW}';",
    f'New-LocalUser -Name svc -Password (ConvertTo-SecureString "{PW}" -AsPlainText -Force)',
    f"htpasswd -b /etc/nginx/.htpasswd admin {PW}",
    f"net user backup {PW} /add",
    f"Redis AUTH {PW} then PING",
    "heroku api key 8f14e45f-ceea-467f-a8d3-9f2a1c6b7e21 for the prod app",
    f"echo '{PW}' | gh auth login --with-token",
    f"yes '{PW}' | passwd deploy",
    f"printf \"%s\" '{PW}' | vault login -method=userpass username=ci password=-",
    f'variable "admin_secret" {{\n  default = "{PW}"\n}}',
]

# Commands whose grammar puts the secret at a place, without a flag or a label: a tool reading it from a pipe, a
# positional argument, a pair of upper-case flags.
PLACED = [
    f"yes '{PW}' | keytool -importkeystore -srckeystore a.p12 -destkeystore b.jks",
    f"echo '{PW}' | gpg --batch --passphrase-fd 0 -c notes.txt",
    f"echo -n '{PW}' | cryptsetup luksOpen /dev/sdb1 vault -",
    f"printf '{PW}' | htpasswd -i /etc/nginx/.htpasswd alice",
    f"echo '{PW}' | vault login -",
    f"mc alias set myminio http://localhost:9000 admin {PW}",
    f"mc config host add prod https://s3.example.com AKIAEXAMPLE12 {PW}",
    f"rabbitmqctl add_user metrics {PW}",
    f"rabbitmqctl -n rabbit@host change_password guest '{PW}'",
    f"mosquitto_passwd -b /etc/mosquitto/pw sensor {PW}",
    f"wpa_passphrase HomeNet {PW}",
    f"rclone obscure '{PW}'",
    f"net use \\\\fs01\\share {PW} /user:corp\\carol",
    f"net use Z: \\\\fs01\\share {PW} /user:corp\\carol",
    f"lftp -u deploy,{PW} sftp://files.example.com",
    f"vault login {PW}",
    f"schtasks /Create /TN backup /RU svc_backup /RP {PW} /TR c:\\b.bat",
    f"ipmitool -I lanplus -H bmc01 -U admin -P {PW} chassis status",
    f'sqlcmd -S db01 -U sa -P "{PW}" -Q "select 1"',
    f"mosquitto_sub -h broker -u reader -P {PW} -t 'sensors/#'",
    f"rclone config create b2 s3 provider Other access_key_id k1 secret_access_key {PW}",
    f"npm config set //npm.example.com/:_authToken {PW}",
    f"gh auth login --with-token <<< {PW}",
    f"yes {PW} | head -2 | smbpasswd -s -a carol",
    f"printf '{PW}' | hdiutil attach -stdinpass backup.dmg",
    f"snmpget -v3 -u mon -l authPriv -a SHA -A {PW} -x AES -X {PW} core01 sysName.0",
    f"netsh wlan set hostednetwork mode=allow ssid=Lab key={PW}",
    f"ssh-keygen -t ed25519 -N '{PW}' -f ~/.ssh/id_ci",
    f"security add-internet-password -a ci -s git.example.com -w {PW}",
    f"openvpn --config c.ovpn --auth-user-pass <(printf 'vpnuser\\n{PW}\\n')",
    f"""expect -c 'spawn ssh ops@bastion; expect "assword:"; send "{PW}\\r"; interact'""",
    f"rpcclient -U admin%{PW} dc01",
    f"net rpc user -U Administrator%{PW} -S dc01",
    f"db2 connect to PAYROLL user db2admin using {PW}",
    f"SENTINEL SET primary auth-pass {PW}",
    f"sudo dscl . -passwd /Users/kiosk {PW}",
    f"export BW_SESSION=$(bw unlock {PW} --raw)",
    f"http -a deploy:{PW} POST https://ci.example.com/hooks",
    f"esxcli system account set -i monitor -p {PW} -c {PW}",
    f"borg init --encryption=repokey --passphrase-file <(echo '{PW}') /srv/borg",
    f"echo -n '{PW}' | docker secret create pg_password -",
    f"printf '{PW}\\n{PW}\\n' | pass insert infra/mq",
    f"printf 'host=git.example.com\\nusername=bot\\npassword={PW}\\n' | git credential approve",
    f"gpg --batch --passphrase-fd 0 -d vault.gpg <<< '{PW}'",
]

# Network gear and VPN peers: keys in device configuration lines.
DEVICE = [
    f"username ops privilege 15 secret 0 {PW}",
    f"enable password {PW}",
    f"crypto isakmp key {PW} address 198.51.100.7",
    f'set security ike policy p1 pre-shared-key ascii-text "{PW}"',
    f"ip ospf authentication-key {PW}",
    f"tacacs-server key {PW}",
    f'10.0.0.1 10.0.0.2 : PSK "{PW}"',
    f"wpa_cli -i wlan0 set_network 1 psk '\"{PW}\"'",
    f"snmp-server community {PW} RO",
    f"aaa group server radius CORP ; radius-server host 10.9.9.9 key {PW}",
    f"set system tacplus-server 10.4.4.4 secret {PW}",
    f'config vpn ipsec phase1-interface ; edit "branch" ; set psksecret {PW} ; end',
    f"set network ike gateway GW1 authentication pre-shared-key key {PW}",
    f"user ops group admins password plaintext {PW}",
    f"wlan corp 1 corp ; security wpa akm psk set-key ascii 0 {PW}",
]

# The grammars of particular stores and tools (round 39): Oracle's user/password@service wherever Oracle reads one,
# -w of kadmin and smbpasswd, a credential word glued to the name before it, Redis's ACL ">password", a password kept
# in the clear under its scheme's name, text written into a credential file, a URL's short "p=" beside its user,
# ZooKeeper's digest, samba-tool's positional password, "auth user:password", a connection call's last two literals.
GRAMMARS = [
    f"SQL> CONNECT hr_app/{PW}@ORCLPDB1",
    f'spring.datasource.url=jdbc:oracle:thin:ledger/{PW}@//db-scan:1521/LEDGER',
    f"impdp parfile: userid=sys_admin/{PW}@CDB1 directory=DP",
    f"kadmin -p ops/admin -w {PW} -q 'listprincs'",
    f"smbpasswd -r files01 -U carol -w {PW}",
    f"EXEC sp_addremotelogin @remoteserver='FIN', @rmtpassword='{PW}'",
    f"[db]\nrootpassword={PW}",
    f"clientsecret: {PW}",
    f"ACL SETUSER reports on >{PW} ~reports:* +@read",
    f"user ingest on nopass reset >{PW} allkeys +xadd",
    f"userPassword: {{CLEARTEXT}}{PW}",
    f"dave:{{PLAIN}}{PW}:1002:1002::/home/dave",
    f"echo '{PW}' > /etc/ansible/.vault_password",
    f"printf 'bot\\n{PW}\\n' | sudo tee /etc/openvpn/creds.conf",
    f"printf 'host mail.example.org\\nuser ops\\npassword {PW}\\n' > ~/.msmtprc",
    f"curl 'http://metrics:8086/query?db=app&u=reader&p={PW}&q=SHOW+MEASUREMENTS'",
    f"addauth digest deployer:{PW}",
    f"samba-tool user create erin {PW} --given-name=Erin",
    f"stats auth monitor:{PW}",
    f"cache_peer parent.example 3128 0 login=relay:{PW}",
    f'conn = DriverManager.getConnection("jdbc:mysql://db:3306/shop", "shop_rw", "{PW}");',
    f"$db = new PDO('mysql:host=db;dbname=crm', 'crm', '{PW}');",
    f'var creds = new NetworkCredential("svc-mail", "{PW}");',
    f"smtp.login('noreply@example.org', '{PW}')",
]


@pytest.mark.parametrize("text", GRAMMARS, ids=[t[:24] for t in GRAMMARS])
def test_a_credential_in_its_stores_grammar_is_a_secret(text):
    assert covered(text, PW), secret_spans(text)


def test_a_short_key_drawn_like_one_in_a_url_is_a_secret():
    text = "https://maps.example.com/api/staticmap?center=0,0&key=Rq7Tz2Wm9Kd4"
    assert covered(text, "Rq7Tz2Wm9Kd4"), secret_spans(text)
    assert find_secrets("https://cdn.example.com/img?key=thumbnail_large&w=300") == []


# Configuration directives named for a credential and their value after a space.
DIRECTIVES = [
    f"AuthLDAPBindPassword {PW}",
    f"rootpw {PW}",
    f"bindpw {PW}",
    f"SMTPAuthSecret {PW}",
]


@pytest.mark.parametrize("text", DIRECTIVES, ids=[t[:24] for t in DIRECTIVES])
def test_a_directive_named_for_a_credential_holds_one(text):
    assert covered(text, PW), secret_spans(text)


@pytest.mark.parametrize("text", DEVICE, ids=[t[:24] for t in DEVICE])
def test_a_key_in_a_devices_configuration_is_a_secret(text):
    assert covered(text, PW), secret_spans(text)


@pytest.mark.parametrize("text", PLACED, ids=[t[:24] for t in PLACED])
def test_a_credential_at_its_commands_place_is_a_secret(text):
    assert covered(text, PW), secret_spans(text)


@pytest.mark.parametrize("text", SLOTS, ids=[t[:20] for t in SLOTS])
def test_a_credential_in_its_commands_slot_is_a_secret(text):
    value = "8f14e45f-ceea-467f-a8d3-9f2a1c6b7e21" if "heroku" in text else PW
    assert covered(text, value), secret_spans(text)


def test_a_powershell_flag_before_an_expression_leaves_the_expression_alone():
    text = f'-Password (ConvertTo-SecureString "{PW}" -AsPlainText)'
    assert set(secret_spans(text)) == {PW}


DOCS = [
    "ENV DB_PASSWORD_FILE /run/secrets/db_password",
    "ENV API_TOKEN_URL https://auth.example.com/token",
    "ARG NPM_TOKEN",
    'setx JAVA_HOME "C:\\Program Files\\Java\\jdk-21"',
    "export SECRET_KEY_BASE64 DecodeSecret2",
    "DB_PASSWORD ${DB_PASSWORD}",
    "the API_KEY variable must be set before 10:00",
    "mem = RecMem()  # RECMEM_URL (default http://localhost:8000), RECMEM_API_KEY (printed by make run)",
    "middleware, API-key authentication, throttling, DRF",
    "    proxy_pass http://localhost:8000;",
    "manage.py revoke_key rmk_abcdefgh_… [--reason leaked]",
    'echo "build finished" | mail -s done ops@example.com',
    "echo 'hello world' | passwd --help",
    'echo "$PASSWORD" | docker login -u deploy --password-stdin',
    "variable \"db_password\" { type = string, sensitive = true }",
    "ALTER ROLE app_rw PASSWORD NULL;",
    "ConvertTo-SecureString $plain -AsPlainText -Force",
    "htpasswd -B -c /etc/nginx/.htpasswd admin",
    "net user bob /delete",
    "net user administrator /active:yes",
    "AUTH required before the command in Redis 6",
    "redis AUTH default $REDIS_PASSWORD",
    "code 4/9, role 0/9, promotion 1/7 (before: 7, 3, 7, 9, 0, 5, 3, 4, 0, 4)",
    "rabbitmqctl add_user $RABBIT_USER $RABBIT_PASS",
    'rabbitmqctl add_user "$USER" "${PASSWORD}"',
    "mc alias set local http://localhost:9000 $MINIO_ACCESS_KEY $MINIO_SECRET_KEY",
    "mc alias set local http://localhost:9000 <ACCESS_KEY> <SECRET_KEY>",
    "The mc alias set command takes a name, a URL, an access key and a secret key.",
    "net use Z: \\\\fs01\\share /persistent:yes",
    "net use Z: \\\\fs01\\share * /user:corp\\carol",
    "vault login -method=oidc role=admin",
    "vault login $VAULT_TOKEN",
    "Run vault login with the token your admin gave you.",
    "rclone obscure -",
    "wpa_passphrase MyNetwork < passphrase.txt",
    "Use wpa_passphrase to generate the PSK for your network.",
    "echo 'done' | keytool -list -keystore k.jks",
    "yes | keytool -importcert -file ca.pem -keystore truststore.jks",
    "lftp -u deploy sftp://files.example.com",
    'psql -U postgres -P pager=off -c "select 1"',
    "schtasks /Create /TN backup /RU SYSTEM /TR c:\\b.bat",
    "rabbitmqctl change_password guest <new-password>",
    "echo hello | tr a-z A-Z",
    "yes | head -5 | sort",
    "echo $TOKEN | gh auth login --with-token",
    "mysql -u root -P 3306 -h db01",
    "mosquitto_pub -u sensor -P $MQTT_PASS -t home/temp -m 21",
    "ssh-keygen -N '' -f ~/.ssh/id_ci",
    "security add-generic-password -a me -s svc -w",
    "netsh wlan show profile name=Home key=clear",
    "echo Deployment1 | tee -a deploy.log",
    "The snmpwalk -A option takes the authentication passphrase.",
    "npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}",
    "rclone config create s3 s3 secret_access_key $AWS_SECRET_ACCESS_KEY",
    "net ads join -U Administrator -S dc01",
    "smbclient //fs/share -U alice",
    "gh auth login --with-token < token.txt",
    "yes y | apt-get install nginx",
    "echo 3 | sudo tee /proc/sys/vm/drop_caches",
    "username admin privilege 15 secret <password>",
    "Set the pre-shared-key on both peers before you bring the tunnel up.",
    "snmp-server community public RO",
    "The authentication-key command sets the MD5 key used by OSPF neighbours.",
    '%any : PSK "$IPSEC_PSK"',
    "tacacs-server key must match the key configured on the server.",
    "enable secret is stronger than enable password.",
    'set_network 0 psk "$WIFI_PSK"',
    "connect to SAMPLE user db2inst1 using $DB2PASS",
    "Most user sessions using SSO last eight hours.",
    "sentinel auth-pass mymaster $REDIS_PASSWORD",
    "requirepass is set in redis.conf",
    "bw unlock --raw",
    "bw unlock --passwordenv BW_PASSWORD",
    "restic -r /srv/restic --password-file <(pass show backup/restic) check",
    "echo 'hello' | podman secret create greeting -",
    "pass insert -m infra/db",
    "For the secret 0 form the password is stored in clear text, so prefer secret 9.",
    "conn %default authby=secret keyexchange=ikev2 ike=aes256-sha256-modp2048",
    'AuthLDAPBindPassword "exec:/usr/local/bin/get-ldap-bind-pw"',
    "rootpw {SSHA}placeholder-from-slappasswd",
    "The radius-server key must match the key on the NPS server.",
    "set system radius-server 10.3.3.3 secret $RADIUS_SECRET",
    "We keep key metrics for every release in the dashboard.",
    "AuthLDAPBindPassword is read from a file in production.",
    # round 39: the same grammars without a value, and the files and objects that hold one
    "sqlplus / as sysdba",
    "jdbc:oracle:thin:@//db-scan:1521/LEDGER with the wallet",
    "kadmin.local -q 'getprinc admin/admin'",
    "smbpasswd -a carol",
    "ACL SETUSER default off nopass",
    "{SSHA}c2FsdGVkaGFzaA== is the scheme we migrate away from",
    "echo 'deploy finished' > /var/log/deploy.txt",
    'echo "$VAULT_PASS" > ~/.vault_pass.txt',
    "curl 'https://shop.example.com/list?u=42&p=2'",
    "conn = sqlite3.connect('app.db')",
    "stats auth monitor:${HAPROXY_STATS_PASS}",
    "kubectl create secret generic pg --from-file=password=./pg-password.txt",
    "mount -t cifs //fs/share /mnt -o credentials=/root/.smbcredentials,vers=3.0",
    "openssl pkcs12 -export -in c.pem -inkey k.pem -out b.p12 -passout file:/run/secrets/p12pass",
    "openssl rsa -in key.pem -passin env:KEY_PASS -out plain.pem",
    "helm install pg bitnami/postgresql --set auth.existingSecret=pg-credentials",
    "7z a -p -mhe=on archive.7z ./reports",
    "PublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=",
    "passwordless=true in the ssh config",
    "nextToken=AbCd1234EfGh5678 returned by the list call",
]


@pytest.mark.parametrize("text", DOCS, ids=[t[:20] for t in DOCS])
def test_documentation_with_the_same_words_stays(text):
    assert find_secrets(text) == [], secret_spans(text)
