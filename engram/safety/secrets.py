"""Provider credentials recognised by their shape, wherever they sit in a line.

The table covers the provider formats of gitleaks' default rule set and detect-secrets' plugins
(written here from their public descriptions; see docs/safety.md). A token is found by its shape,
not by the key it is assigned to, so it is caught bare, in an env line, in JSON under a neutral
key, in a code block or an HTML comment. Keyword-only formats (a provider name next to a random
string) are the assignment rule's job in `engram.safety`.

Cost: a line is cut into runs of token characters 16 or more long (one C-speed search); only those
runs are matched against the table, so prose, which has few such runs, costs almost nothing.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable, Iterator

from engram.safety.lazy_regex import LazyRegex

_PROVIDERS: tuple[tuple[str, str], ...] = (
    ("AWS access key id", r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"),
    ("GitHub token", r"gh[pousr]_[A-Za-z0-9]{36,76}"),
    ("GitHub fine-grained token", r"github_pat_[A-Za-z0-9_]{50,}"),
    ("GitLab token",
     r"gl(?:pat|ptt|rt|ft|dt|imt|agent|oas|soat|ffct|cbt|cic|wt)-[A-Za-z0-9_-]{20,}"
     r"|GR1348941[A-Za-z0-9_-]{20}"),
    ("Grafana token",
     r"glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"
     r"|eyJrIjoi[A-Za-z0-9+/]{50,}={0,2}"),
    ("Slack token", r"xox[abposre]-[A-Za-z0-9-]{10,}|xoxe\.xox[bp]-\d-[A-Za-z0-9]{100,}"
                    r"|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"),
    ("Slack webhook URL", r"hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{40,}"),
    ("Anthropic API key", r"sk-ant-[A-Za-z0-9_-]{20,}"),
    ("OpenAI-style API key", r"sk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_-]{20,}"),
    ("Stripe key", r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}"),
    ("Google API key", r"AIza[0-9A-Za-z_-]{35}"),
    ("Google OAuth secret", r"GOCSPX-[A-Za-z0-9_-]{28}|ya29\.[A-Za-z0-9_-]{30,}"),
    ("npm token", r"npm_[A-Za-z0-9]{36}"),
    ("PyPI token", r"pypi-AgE[A-Za-z0-9_-]{50,}"),
    ("DigitalOcean token", r"do[opr]_v1_[a-f0-9]{64}"),
    ("Shopify token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("Hugging Face token", r"(?:hf_|api_org_)[A-Za-z]{34}"),
    ("SendGrid API key", r"SG\.[A-Za-z0-9_-]{20,24}\.[A-Za-z0-9_-]{39,50}"),
    ("age secret key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    ("Pulumi token", r"pul-[a-f0-9]{40}"),
    ("Vault token", r"hv[sb]\.[A-Za-z0-9_-]{24,}"),
    ("Terraform Cloud token", r"[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}"),
    ("Sentry token", r"sntry[su]_[A-Za-z0-9_=+/]{40,}"),
    ("RubyGems key", r"rubygems_[a-f0-9]{48}"),
    ("PlanetScale token", r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}"),
    ("Artifactory key", r"AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59}"),
    ("Perplexity key", r"pplx-[A-Za-z0-9]{48}"),
    ("Notion token", r"ntn_[0-9]{11}[A-Za-z0-9]{32,40}|secret_[A-Za-z0-9]{43}"),
    ("Twilio API key", r"SK[0-9a-fA-F]{32}"),
    ("Databricks token", r"dapi[a-f0-9]{32}(?:-\d)?"),
    # A service token names its config: `dp.st.prd.<token>`.
    ("Doppler token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{40,44}"),
    ("Dynatrace token", r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}"),
    ("EasyPost key", r"EZ[AT]K[A-Za-z0-9]{54}"),
    ("Linear key", r"lin_(?:api|oauth)_[A-Za-z0-9]{40}"),
    ("New Relic key", r"NR(?:AK|II|JS|RA)-[A-Za-z0-9_-]{27,32}"),
    ("Postman key", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}"),
    ("Prefect key", r"pnu_[A-Za-z0-9]{36}"),
    ("ReadMe key", r"rdme_[a-z0-9]{70}"),
    ("Brevo key", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ("Shippo token", r"shippo_(?:live|test)_[a-fA-F0-9]{40}"),
    ("Square token", r"(?:EAAA|sq0atp-)[A-Za-z0-9_-]{22,60}|sq0csp-[A-Za-z0-9_-]{43}"),
    ("Typeform token", r"tfp_[A-Za-z0-9_.=-]{59}"),
    ("1Password token",
     r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}"
     r"|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}"),
    ("Mailchimp key", r"[a-f0-9]{32}-us\d{1,2}"),
    ("Mailgun key", r"key-[a-f0-9]{32}"),
    ("Telegram bot token", r"\d{5,16}:A[A-Za-z0-9_-]{34}"),
    ("Telegram bot token", r"bot\d{5,16}:A[A-Za-z0-9_-]{34}"),  # in an API URL's path
    ("Lob API key", r"(?:live|test)_(?:[a-f0-9]{35}|pub_[a-f0-9]{31})"),
    ("LaunchDarkly key", r"(?:api|sdk)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}"
                         r"-[a-f0-9]{12}"),
    ("Discord bot token", r"[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}"),
    ("Alibaba key", r"LTAI[A-Za-z0-9]{20}"),
    ("Atlassian token", r"ATATT3[A-Za-z0-9_=-]{186}"),
    ("Azure AD client secret", r"[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}"),
    ("Clojars token", r"CLOJARS_[a-z0-9]{60}"),
    ("Dropbox token", r"sl\.[A-Za-z0-9_=-]{130,152}"),
    ("Duffel token", r"duffel_(?:test|live)_[A-Za-z0-9_=-]{43}"),
    ("Facebook token", r"EAA[MC][A-Za-z0-9]{100,}"),
    ("Frame.io token", r"fio-u-[A-Za-z0-9_=-]{64}"),
    ("Flutterwave key", r"FLWSECK(?:_TEST)?-[a-hA-H0-9]{32}-X|FLWSECK_TEST[a-hA-H0-9]{12}"),
    ("Harness token", r"(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}"),
    ("Infracost key", r"ico-[A-Za-z0-9]{32}"),
    ("Mapbox secret token", r"sk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}"),
    ("OpenShift token", r"sha256~[A-Za-z0-9_-]{43}"),
    ("Scalingo token", r"tk-us-[A-Za-z0-9_-]{48}"),
    ("Sourcegraph token", r"sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|sgp_[a-fA-F0-9]{40}"),
    ("Yandex key", r"AQVN[A-Za-z0-9_-]{35,38}|YC[A-Za-z0-9_-]{38}"
                   r"|t1\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]{86}={0,2}"),
    ("Cloudflare origin CA key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    ("Heroku key", r"HRKU-AA[A-Za-z0-9_-]{58}"),
    ("SettleMint token", r"sm_(?:pat|aat|sat)_[A-Za-z0-9]{16}"),
    ("Octopus Deploy key", r"API-[A-Z0-9]{26}"),
    ("Azure storage key", r"AccountKey=[A-Za-z0-9+/]{86,88}={0,2}"),
    ("42 Intra secret", r"s-s4t2(?:ud|af)-[a-f0-9]{64}"),
    ("Defined Networking key", r"dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}"),
    ("Discord webhook URL", r"discord(?:app)?\.com/api/webhooks/\d{17,20}/[A-Za-z0-9_-]{60,70}"),
    ("Microsoft Teams webhook URL",
     r"webhook\.office\.com/webhookb2/[a-z0-9-]+@[a-z0-9-]+/IncomingWebhook/[a-z0-9]{32}/"
     r"[a-z0-9-]{36}"),
    ("Contentful token", r"CFPAT-[A-Za-z0-9_-]{43}"),
    ("Plaid token",
     r"access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}"
     r"-[0-9a-f]{12}"),
    ("Supabase key", r"sbp_[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{30,}"),
    ("Groq key", r"gsk_[A-Za-z0-9]{52}"),
    ("xAI key", r"xai-[A-Za-z0-9]{80}"),
    ("Replicate token", r"r8_[A-Za-z0-9]{37}"),
    ("LangSmith key", r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}"),
    ("Tavily key", r"tvly-(?:dev-|prod-)?[A-Za-z0-9]{32}"),
    ("Netlify token", r"nf[pc]_[A-Za-z0-9]{36,40}"),
    ("Figma token", r"fig[dou]_[A-Za-z0-9_-]{40}"),
    ("Docker Hub token", r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}"),
    ("Render key", r"rnd_[A-Za-z0-9]{32}"),
    ("Fly.io token", r"fo1_[A-Za-z0-9_-]{43}"),
    ("Airtable token", r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}"),
    ("Adobe client secret", r"p8e-[A-Za-z0-9]{32}"),
    ("ClickHouse Cloud key", r"4b1d[A-Za-z0-9]{38}"),
    ("GitLab session cookie", r"_gitlab_session=[0-9a-z]{32}"),
    ("Fly.io macaroon", r"fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3}"),
    ("MaxMind license key", r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk"),
    ("Facebook access token", r"\d{15,16}(?:\||%7[Cc])[0-9A-Za-z_-]{27,40}"),
    ("AWS MWS key", r"amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    ("Authress key",
     r"(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}"
     r"\.[A-Za-z0-9+/_=-]{30,120}"),
    ("Bitbucket app password", r"ATBB[A-Za-z0-9_=.-]{32,}"),
    ("Buildkite token", r"bkua_[a-f0-9]{40}"),
    ("CircleCI token", r"CCIP[AR]T_[A-Za-z0-9]{22}_[a-f0-9]{40}"),
    ("HubSpot token",
     r"pat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    ("MailerSend token", r"mlsn\.[a-f0-9]{64}"),
    ("Pinecone key", r"pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}"),
    ("Resend key", r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}"),
    ("SonarQube token", r"sq[upa]_[a-f0-9]{40}"),
    ("Stripe webhook secret", r"whsec_[A-Za-z0-9+/=]{32,}"),
    ("Asana token", r"[0-2]/\d{16}/\d{16}:[a-f0-9]{32}"),
    ("base64-encoded JSON web token",
     r"ZXlK(?:hbGciOi|0eXAiOi|raWQiOi|aGJHY2lPaU|MGVYQWlPaUp|cmFXUWlP)[A-Za-z0-9+/]{40,}={0,2}"),
    ("JSON web token", r"eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ("Adafruit IO key", r"aio_[A-Za-z0-9]{28}"),
    ("Beamer token", r"b_[A-Za-z0-9_=-]{44}"),
    ("Mailgun public key", r"pubkey-[a-f0-9]{32}"),
    ("Tailscale key",
     r"tskey-(?:auth|api|client|webhook|scim)-[A-Za-z0-9]{8,20}-[A-Za-z0-9]{20,40}"),
    ("Firebase Cloud Messaging server key", r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,}"),
    ("Fireworks key", r"fw_[A-Za-z0-9]{24}"),
    ("Azure DevOps token", r"[a-z2-7]{52}|[A-Za-z0-9]{52}AZDO[A-Za-z0-9]{4}"),
    ("Twilio account SID and token", r"AC[a-f0-9]{32}:[a-f0-9]{32}"),
    # detect-secrets flags the account SID on its own: it is half of every Twilio credential.
    ("Twilio account SID", r"AC[a-f0-9]{32}"),
    ("Flutterwave encryption key", r"FLWSECK_TEST-[a-hA-H0-9]{12}"),
    ("Flutterwave public key", r"FLWPUBK(?:_TEST)?-[a-hA-H0-9]{32}-X"),
    ("Vault token (legacy)", r"s\.[A-Za-z0-9]{24}"),
    ("New Relic browser key", r"NRJS-[a-f0-9]{19}"),
    ("Aiven token", r"AVNS_[A-Za-z0-9_]{8,}"),
    ("Amazon Bedrock key", r"ABSK[A-Za-z0-9+/]{109,269}={0,2}"),
    ("Azure instrumentation key",
     r"InstrumentationKey=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"),
    # trufflehog's detectors, outside gitleaks' and detect-secrets' rule sets: an STS session
    # token starts with the base64 of its own binary header, whatever the account.
    ("AWS session token", r"(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9+/]{100,}={0,2}"),
    ("Sanity token", r"sk[A-Za-z0-9]{78,200}"),
    ("Scaleway access key", r"SCW[A-Z0-9]{17}"),
    ("ngrok auth token", r"[1-9][A-Za-z0-9]{25,27}_[A-Za-z0-9]{20,22}"),
)
_TOKEN_RE = LazyRegex(
    "(?<![A-Za-z0-9_])(?:"
    + "|".join(f"(?P<p{i}>{pattern})" for i, (_, pattern) in enumerate(_PROVIDERS))
    + ")(?![A-Za-z0-9_])"
)
_DETAIL = {f"p{i}": name for i, (name, _) in enumerate(_PROVIDERS)}
# Providers publish new formats every year, and nearly all follow one shape: a short lower-case
# prefix (`gsk_`, `dckr_pat_`, `live_`), then a long random body. A body of 32 or more characters
# mixing upper case, lower case and digits is a generated credential, whatever the prefix; hash
# names (sha256-..., sha512-...) carry base64 digests, which are public.
_PREFIXED_RE = LazyRegex(
    r"(?<![A-Za-z0-9_.+/=-])(?!sha\d|md5|blake|sri)(?P<prefix>[a-z][a-z0-9]{1,9})[_-]"
    r"(?:[a-z0-9]{1,8}[_-])?(?P<body>[A-Za-z0-9_-]{28,200})(?![A-Za-z0-9_+/=-])"
)
# Keys made to be embedded in web pages, which grant nothing secret: Stripe's and Clerk's
# publishable keys, PostHog's project key. (Each provider's secret keys have other prefixes.)
_PUBLISHABLE = ("pk_live_", "pk_test_", "phc_")
# ... and a Mapbox public token (`pk.eyJ...`; its secret ones start `sk.`).
PUBLIC_BY_DESIGN = (*_PUBLISHABLE, "pk.ey")
_BRAINTREE_RE = LazyRegex(r"access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}")
_RUN_RE = LazyRegex(r"[A-Za-z0-9_.~+/:=@|%-]{16,}")
_LONG_WORD_RE = LazyRegex(r"(?<!\S)\S{16,}")  # \s is what str.split() splits on
# Documentation stand-ins: AWS's own AKIAIOSFODNN7EXAMPLE, ghp_xxxx..., sk-...your-key...,
# sk_live_abc123xyz789 (runs of the alphabet and of the digits a writer types for "some value")
_FAKE_RE = LazyRegex(
    r"example|sample|placeholder|dummy|redacted|fake|your|xxxx|0{6}|123456|abcdef|abc123"
    r"|xyz789|\.\.\.|\*|[\u2022\u25cf\u2219]{3}"
    # a canary a test plants on purpose ("CANARY-7f3a-not-a-real-key")
    r"|not[-_]?a[-_]?real|canary"
    # Stripe's API reference's own test key
    r"|4ec39hqlyjwdarjtt1zdp7dc",
    re.IGNORECASE,
)
# jwt.io's sample token, printed in countless tutorials.
_SAMPLE_JWT_RE = LazyRegex(r"john doe|1234567890|example", re.IGNORECASE)


def real_token(token: str) -> bool:
    """Random keys have many distinct characters and mix digits or cases; stand-ins do not."""
    body = token.split("_", 1)[-1] if token.startswith(("gh", "npm_")) else token
    if _FAKE_RE.search(body) or len(set(body)) < 8:
        return False
    has_digit = any(c.isdigit() for c in body)
    mixed_case = any(c.islower() for c in body) and any(c.isupper() for c in body)
    # `sk-fading-circle-animation` is a CSS class: no digit and one case. An AWS key id has
    # no digit one time in thirty (its alphabet is A-Z and 2-7), so upper case alone counts
    # when the characters are many and varied.
    upper_only = body.isupper() and body.isalpha() and len(set(body)) >= 10
    return (has_digit or mixed_case or upper_only) and any(c.isalpha() for c in body)


def _sample_jwt(token: str) -> bool:
    payload = token.split(".")[1]
    try:
        decoded = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError):
        return False
    return bool(_SAMPLE_JWT_RE.search(decoded.decode("utf-8", "replace")))


def provider_token(text: str) -> tuple[int, str] | None:
    """The column and provider of the first real-looking provider token in `text`."""
    # Most words are too short to hold a token at all: only the long ones are visited.
    for long_word in _LONG_WORD_RE.finditer(text):
        word, column = long_word.group(), long_word.start()
        if "$" in word:
            # `$` splits a run, and Braintree's token is three `$`-joined parts.
            braintree = _BRAINTREE_RE.search(word)
            if braintree:
                return column + braintree.start(), "Braintree access token"
        for run in _RUN_RE.finditer(word):
            for m in _TOKEN_RE.finditer(run.group()):
                name = _DETAIL[m.lastgroup or ""]
                token = m.group()
                if not real_token(token):
                    continue
                if name == "JSON web token" and _sample_jwt(token):
                    continue
                if name == "Vault token (legacy)" and not any(c.isdigit() for c in token):
                    continue  # `s.getElementsByTagName`: a property, not a token
                return column + run.start() + m.start(), name
            for m in _PREFIXED_RE.finditer(_after_key(run.group())):
                if m.group().startswith(_PUBLISHABLE):
                    continue
                if random_body(m.group("body"), m.group("prefix")):
                    return column + run.start() + m.start(), "prefixed API token"
    return None


def _entropy(text: str) -> float:
    counts = [text.count(c) for c in set(text)]
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts)


def _after_key(run: str) -> str:
    """A run with a leading `key=` blanked out (same length, so columns hold): the token after
    `_authToken=` or `AUTH=` starts where the key ends."""
    at = run.rfind("=", 0, len(run) - 1)
    # Inside base64 `=` only pads the end, so `=` between word characters ends a key.
    if at > 0 and (run[at - 1].isalnum() or run[at - 1] == "_") and run[at + 1].isalnum():
        return " " * (at + 1) + run[at + 1 :]
    return run


# Prefixes that say "secret" themselves: a long hex or lower-case body after one is a key, where
# after `build-` or `commit_` it is a digest.
_SECRET_PREFIXES = frozenset(("sk", "key", "secret", "token", "tok", "api", "apikey", "pat",
                              "csk", "napi", "auth", "pk", "priv"))


def random_body(body: str, prefix: str = "") -> bool:
    """A generated string: upper case, lower case and digits mixed, and no stand-in words; or,
    long enough, one case and digits (`csk-...`, `napi_...`), hex only after a secret prefix."""
    core = body.replace("_", "").replace("-", "")
    if len(core) < 28 or _FAKE_RE.search(body) or _wordy(core):
        return False
    digits = sum(c.isdigit() for c in core)
    if any(c.isupper() for c in core) and any(c.islower() for c in core):
        return digits >= 2 and _entropy(core) >= 4.0 and (len(core) >= 30 or digits >= 4)
    hexadecimal = all(c in "0123456789abcdefABCDEF" for c in core)
    if len(core) < 40 or digits < len(core) // 8 or _entropy(core) < (3.5 if hexadecimal else 3.8):
        return False
    return not hexadecimal or prefix in _SECRET_PREFIXES


def random_letters(value: str) -> bool:
    """Letters only, yet generated: upper and lower case changing at about every other
    character and no words (`xnFpXomfqMLfcCfz`), where a stand-in reads as words
    (`ChangeMe`, `MySecretPassword`)."""
    if len(value) < 10 or not value.isalpha() or len(set(value)) < 8:
        return False
    if value.islower() or value.isupper():
        # One case: generated letters carry few vowels (a fifth, against two fifths in words
        # and in stand-ins such as `thisisnotarealkey`).
        vowels = sum(c in "aeiou" for c in value.lower())
        return len(value) >= 20 and vowels < 0.25 * len(value) and len(set(value)) >= 12
    return _switches(value) >= 0.4 * len(value) and not _wordy(value)


def _wordy(value: str) -> bool:
    """Mostly pronounceable words (`ShouldReturnUserWhenIdIs42`): over 60% of the characters sit
    in a run of two or more lower-case letters with a vowel. A random base62 string does so
    under 0.2% of the time."""
    words = sum(len(m.group()) for m in _WORD_RE.finditer(value) if _VOWEL_RE.search(m.group()))
    return words > 0.6 * len(value)


_WORD_RE = LazyRegex(r"[A-Z]?[a-z]{2,}")
_VOWEL_RE = LazyRegex(r"[aeiouy]")


def _switches(value: str) -> int:
    """How often the character class (upper, lower, digit, other) changes: random base62 changes
    at about every other character, CamelCase names and words far less often."""
    classes = ["u" if c.isupper() else "l" if c.islower() else "d" if c.isdigit() else "s"
               for c in value]
    return sum(a != b for a, b in zip(classes, classes[1:], strict=False))


def random_value(value: str) -> bool:
    """A value that can only be generated. Used where the key alone says little (`DD_APP_KEY`,
    `twitter: bearer:`): hex of 16 digits or more, or a string of 14 or more mixing letters and
    digits the way generated strings do (see `_random_run`), whole or between separators (a
    Twitter token's `<digits>-<random>`, a Mapbox `pk.<random>.<random>`); words, kebab-case
    names, paths, URLs and versions fail."""
    if len(value) < 14 or _FAKE_RE.search(value) or not _VALUE_RE.fullmatch(value):
        return False
    if not any(c.isdigit() for c in value) or len(set(value)) < 10:
        return False
    if _HEX_VALUE_RE.fullmatch(value):
        # The digits after a word (`order-2024-11-03-000123`) are a date and a number.
        core = value.split("-", 1)[1] if value[:1].isalpha() and "-" in value else value
        return sum(c != "-" for c in core) >= 16 and any(c.isalpha() for c in core)
    if _random_run(value) and not _DOTTED_NAME_RE.fullmatch(value):
        return True  # `win32api.RegEnumKey`, `self.G2_node_order` are names
    parts = _SEPARATOR_RE.split(value)
    return len(parts) > 1 and any(len(part) >= 16 and _random_run(part) for part in parts)


_SEPARATOR_RE = LazyRegex(r"[-_.]")


def _random_run(value: str) -> bool:
    """Letters and digits in a generated order. Upper and lower case mixed: the class changes at
    about every other character (`X25519PrivateKey`, `MLKEM768` change far less often). One case
    (gitleaks' keyword rules take `[a-z0-9]{32}` case-blind, and many providers issue lower-case
    keys): letters and digits both plentiful and interleaved, so `node18alpine3`, `build-2024`
    and `ubuntu2204` fail."""
    if not any(c.isdigit() for c in value) or len(set(value)) < 10:
        return False
    switches = _switches(value)
    if any(c.isupper() for c in value) and any(c.islower() for c in value):
        return switches >= 0.4 * len(value) and _entropy(value) >= 3.5 and not _wordy(value)
    # One case: a word test would read `iuetkiq` in a random string as a word; interleaving
    # (a switch at least every third character) is what names and words lack.
    # One case. A word test would read `cezwwwbkgjgb` in a random string as a word: vowels
    # tell better (a fifth of random letters, two fifths of words and names).
    if not value.isalnum():
        # Dashes and underscores inside a long key are part of its alphabet; a short value
        # with dashes (`web-7d9f8b6c5-x2k4p`) is a pod's or a build's name.
        bare = value.replace("-", "").replace("_", "")
        return len(bare) >= 24 and bare.isalnum() and _random_run(bare)
    letters = sum(c.isalpha() for c in value)
    digits = sum(c.isdigit() for c in value)
    vowels = sum(c in "aeiouAEIOU" for c in value)
    hexlike = all(c in "0123456789abcdefABCDEF" for c in value)  # a and e are a third of a-f
    if vowels >= 0.35 * max(letters, 1) and not hexlike:
        return False
    if len(value) >= 20 and digits >= 2 and _entropy(value) >= 3.8:
        return True  # long enough that letters not making words are telling on their own
    return (len(value) >= 14 and letters >= 0.3 * len(value) and digits >= 0.15 * len(value)
            and switches >= 0.25 * len(value)
            and _entropy(value) >= min(3.5, math.log2(len(value)) - 0.6))


_VALUE_RE = LazyRegex(r"[A-Za-z0-9_+/=~.-]+")
_HEX_VALUE_RE = LazyRegex(r"(?:[a-z]{2,6}-)?[0-9a-f-]+|[0-9A-F-]+")
_DOTTED_NAME_RE = LazyRegex(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")

# gitleaks' keyword-only formats: a random string whose only sign is the provider named in its
# key, or a key ending in a word for a credential that the assignment rule leaves alone because
# it is too common on its own (`app_key`, `api`, `bearer`). The value must be random (above).
_PROVIDER_NAMES = (
    "adafruit|adobe|airtable|algolia|alibaba|amplitude|artifactory|asana|atlassian|auth0|aws"
    "|beamer|bintray|bitbucket|bittrex|co_api_key|contribsys|linear|linked[_-]in|lob"
    "|message[_-]bird|new-relic|newyorktimes|private[_-]ai|xray"
    "|cloudant|cloudflare|codecov|cohere|coinbase|confluence|confluent|contentful|datadog|deepseek"
    "|discord|droneci|dropbox|etsy|facebook|fastly|finicity|finnhub|firebase|flickr|freshbooks"
    "|gemini|gitter|gocardless|groq|heroku|hubspot|ibm|intercom|jfrog|jira|kraken|kucoin"
    "|launchdarkly|linkedin|mailchimp|mailgun|mapbox|mattermost|meraki|messagebird|mistral"
    "|mixpanel|netlify|newrelic|new_relic|nytimes|okta|pagerduty|plaid|postmark|privateai"
    "|rapidapi|segment|sendbird|sentry|snyk|softlayer|sonar|squarespace|sumo|supabase|telegram"
    "|travis|twilio|twitch|twitter|typeform|vercel|yandex|zendesk"
)
_KEYWORD_RE = LazyRegex(
    r"(?<![A-Za-z0-9])(?:[\w.-]{0,40}?(?:" + _PROVIDER_NAMES + r")[\w.-]{0,40}"
    r"(?:[ \t]+[\w.-]+){0,4}?|(?![\w.-]*pub)[\w.-]{0,40}?(?:api|bearer|auth|access|[_.-]key|key))"
    r"(?:[ \t]*\([^()\n]{0,30}\))?[ \t'\"]{0,3}(?:[?+!]?=|:|=>|:=)[ \t'\"`=]{0,5}"
    r"(?:base64:)?(?P<value>[A-Za-z0-9_+/=~.-]{14,200})",
    re.IGNORECASE,
)
_KEYWORD_END_RE = LazyRegex(_KEYWORD_RE.pattern + r"\Z", re.IGNORECASE)
_UUID_RE = LazyRegex(r"(?:[a-z]{2,6}-)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}", re.IGNORECASE)
_PROVIDER_RE = LazyRegex(_PROVIDER_NAMES, re.IGNORECASE)
_AUTH_KEY_RE = LazyRegex(r"auth|token|secret|passw|api[_-]?key", re.IGNORECASE)
# A CAPTCHA's site key and a publishable key are rendered into web pages; their secret
# counterparts are named as such.
_PUBLIC_NAME_RE = LazyRegex(r"site[ _.-]?key|publishable|\bpublic\b", re.IGNORECASE)
_VALUE_AFTER_RE = LazyRegex(r"(?:=|:|=>)[ \t'\"`=]{0,5}([A-Za-z0-9_+/=~.-]{14,200})")
# Signed URLs carry their credential in the query: an Azure SAS (`sv=...&sig=...`) or an AWS
# presigned URL (`X-Amz-Signature=...` beside `X-Amz-Credential=...`).
_SIGNED_URL_RE = LazyRegex(
    r"[?&](?:sig=[A-Za-z0-9%+/]{30,}|x-amz-signature=[0-9a-f]{64})", re.IGNORECASE
)
# An Azure Functions key rides in the query (`https://app.azurewebsites.net/api/f?code=...`).
_FUNCTION_KEY_RE = LazyRegex(r"azurewebsites\.net/api/\S*?[?&]code=([A-Za-z0-9_-]{40,}={0,2})")
# SoftLayer's API takes its key as a path segment.
_SOFTLAYER_URL_RE = LazyRegex(r"softlayer\.com/(?:soap|rest)/v3(?:\.1)?/([a-z0-9]{64})\b",
                               re.IGNORECASE)
# Sidekiq Enterprise's gem-server credential in Bundler's environment variable.
_CONTRIBSYS_RE = LazyRegex(
    r"BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM[\s\"':=]{1,6}([a-f0-9]{8}:[a-f0-9]{8})\b",
    re.IGNORECASE,
)


# A credential given to a publishing tool as a flag: `dotnet nuget push ... --api-key oy2kc9...`
# (not an id a cloud CLI's docs pass: `aws apigateway get-api-key --api-key 8bklk8...`).
_FLAG_SECRET_RE = LazyRegex(
    r"\b(?:nuget|twine|npm|yarn|pnpm|gem|cargo|vsce|ovsx|helm|docker|poetry|flit|hatch)\b[^\n]*?"
    r"--(?:api-?key|auth-token|token|password|secret|access-key)[ =]['\"]?"
    r"([A-Za-z0-9_\-./+=]{16,})")
# Okta's API tokens travel in an `SSWS` authorization scheme.
_OKTA_RE = LazyRegex(r"\bSSWS\s+(00[\w-]{40})\b")


def keyword_secret(text: str) -> tuple[int, str] | None:
    """A random value under a provider's name or a credential-like key, or a signed URL."""
    # Values first (one cheap search; random ones are rare), then the key left of each.
    for v in _VALUE_AFTER_RE.finditer(text):
        value = v.group(1).rstrip(".")
        if value.startswith(PUBLIC_BY_DESIGN):
            continue  # made to be shown
        if random_value(value):
            head_start = max(0, v.start() - 120)
            m = _KEYWORD_END_RE.search(text[head_start : v.end()])
            key = text[head_start + m.start() : v.start()] if m else ""
            # A UUID is an id (`idempotency_key: ...`) unless a provider that issues UUID keys
            # is named (Heroku, Snyk, LaunchDarkly's `sdk-...`) or the key says it authenticates.
            if m and _PUBLIC_NAME_RE.search(key) and not _AUTH_KEY_RE.search(key):
                continue  # a site key or a publishable key is made to be shown
            if m and (not _UUID_RE.fullmatch(value) or _PROVIDER_RE.search(key)
                      or _AUTH_KEY_RE.search(key)):
                return head_start + m.start(), "random value under a credential name"
    if text.count(":") >= 4:
        pgpass = _PGPASS_RE.match(text)
        if pgpass and random_value(pgpass.group(1).strip("!#")) or pgpass and len(
                pgpass.group(1)) >= 12 and not _FAKE_RE.search(pgpass.group(1)) and _switches(
                pgpass.group(1)) >= 0.4 * len(pgpass.group(1)):
            return pgpass.start(1), "password in a pgpass entry"
    if "--" in text:
        flag = _FLAG_SECRET_RE.search(text)
        if flag and random_value(flag.group(1)):
            return flag.start(), "credential on a command line"
    if "SSWS" in text:
        okta = _OKTA_RE.search(text)
        if okta and real_token(okta.group(1)):
            return okta.start(1), "Okta API token"
    if "code=" in text and "azurewebsites" in text:
        function_key = _FUNCTION_KEY_RE.search(text)
        if function_key and real_token(function_key.group(1)):
            return function_key.start(1), "Azure Functions key"
    if "softlayer" in text.lower():
        softlayer = _SOFTLAYER_URL_RE.search(text)
        if softlayer:
            return softlayer.start(1), "SoftLayer API key in a URL"
    if "CONTRIBSYS" in text.upper():
        contribsys = _CONTRIBSYS_RE.search(text)
        if contribsys:
            return contribsys.start(1), "Sidekiq Enterprise credential"
    if "sig=" in text and "sv=" in text or "Signature=" in text and "Credential=" in text:
        signed = _SIGNED_URL_RE.search(text)
        if signed:
            return signed.start(), "signed URL"
    return None


# A Kubernetes Secret manifest: values under `data:` are base64 of the secret itself.
_KIND_SECRET_RE = LazyRegex(r"^\s*kind:\s*[\"']?Secret[\"']?\s*$")
_DATA_RE = LazyRegex(r"^(\s*)(?:data|stringData):\s*$")
_DATA_ITEM_RE = LazyRegex(r"^(\s+)[\w.-]+:\s*[\"']?(?P<value>[A-Za-z0-9+/]{16,}={0,2})[\"']?\s*$")
_DOC_END_RE = LazyRegex(r"^(?:---|```|~~~)")


def manifest_secrets(lines: list[str]) -> list[tuple[int, int, str]]:
    """(index, column, detail) for each base64 value in a Kubernetes Secret's `data:` block."""
    hits: list[tuple[int, int, str]] = []
    for index in _under(lines, _KIND_SECRET_RE, _DATA_RE):
        item = _DATA_ITEM_RE.match(lines[index])
        if item is not None and _encoded_secret(item.group("value")):
            hits.append((index, len(item.group(1)), "Kubernetes Secret value"))
    return hits


_KIND_SEALED_RE = LazyRegex(r"^\s*kind:\s*[\"']?SealedSecret[\"']?\s*$")
_ENCRYPTED_DATA_RE = LazyRegex(r"^(\s*)encryptedData:\s*$")


def sealed_values(lines: list[str], excerpt: bool = False) -> set[int]:
    """Indexes of the lines under a SealedSecret's `encryptedData:`: ciphertext only the
    cluster's controller can open, made to be committed (the manifest's whole point). An
    `excerpt` (no `kind:` line at all) is read as one."""
    return set(_under(lines, _KIND_SEALED_RE, _ENCRYPTED_DATA_RE, unstated=excerpt))


def _under(lines: list[str], kind: LazyRegex, head: LazyRegex, unstated: bool = False
           ) -> Iterator[int]:
    """Indexes of the lines indented under `head` (whose group 1 is its indent) in a YAML
    document of that `kind` (with `unstated`, in any document: no kind is stated): a line
    indented no deeper than the head ends the block."""
    of_kind, indent = unstated, None
    for index, line in enumerate(lines):
        if _DOC_END_RE.match(line):
            of_kind, indent = unstated, None
        elif kind.match(line):
            of_kind = True
        elif (found := head.match(line)) is not None:
            indent = len(found.group(1))
        elif indent is not None and line.strip():
            if len(line) - len(line.lstrip()) <= indent:
                indent = None
            elif of_kind:
                yield index


def _encoded_secret(value: str) -> bool:
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    plain = raw.decode("utf-8", "replace")
    if not plain.isprintable():
        return True  # binary: a key, not a word
    return not _FAKE_RE.search(plain) and len(set(plain)) >= 6


# Credentials in a header (`-H "X-Api-Key: ..."`, `Authorization: Token ...`) or a NuGet-style
# `<add key="Password" value="...">`.
_HEADER_RE = LazyRegex(
    r"(?:authorization:\s*(?:token|api-token)\s+|\bx-(?:[a-z]+-)?(?:api-?)?(?:key|token):\s*)"
    r"([\w=~@.+/-]{8,})",
    re.IGNORECASE,
)
_XML_VALUE_RE = LazyRegex(
    r"key=\"[^\"]*(?:password|token|secret|apikey)[^\"]*\"\s+value=\"([^\"]{6,})\"", re.IGNORECASE
)
# `<password>...</password>` in Maven's settings.xml, NuGet or any XML config.
_XML_ELEMENT_RE = LazyRegex(
    r"<(?P<tag>[\w:.-]*(?:password|passwd|secret|token|apikey|api-key|api_key))>"
    r"(?P<value>[^<\s]{6,})</(?P=tag)>",
    re.IGNORECASE,
)
# Credential files and command lines whose syntax names no key before the value: netrc's
# `password X`, a pgpass `host:port:db:user:password` line, `mysql -pX`.
_NETRC_RE = LazyRegex(r"^\s*(?:machine\s+\S+\s+)?(?:login\s+\S+\s+)?password\s+(\S{6,})\s*$")
_PGPASS_RE = LazyRegex(r"^\s*[\w.-]+\.[\w.-]+:(?:\d{2,5}|\*):[\w*.-]+:[\w*.-]+:(\S{6,})\s*$")
_MYSQL_P_RE = LazyRegex(
    r"\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^|;&\n]*?\s-p([^\s'\"]{6,})")
_BASIC_RE = LazyRegex(r"\b[Bb]asic\s+([A-Za-z0-9+/]{12,}={0,2})(?![A-Za-z0-9+/=])")
_CURL_USER_RE = LazyRegex(r"(?:^|\s)(?:-u|--user)\s*[\"']?[^\s:\"'$<{]+:([^\s\"'@]{6,})")


def basic_auth(text: str, check: Callable[[str], bool],
               is_password: Callable[[str], bool] | None = None) -> tuple[int, str] | None:
    """Credentials by their context: `Authorization: Basic <base64 user:password>`,
    `curl -u user:password`, API-key headers and XML config values. `is_password` judges the
    values that syntax says are passwords (netrc, `mysql -p`), `check` the rest."""
    is_password = is_password or check
    if "asic " in text:
        for m in _BASIC_RE.finditer(text):
            try:
                raw = base64.b64decode(m.group(1) + "=" * (-len(m.group(1)) % 4))
            except (binascii.Error, ValueError):
                continue
            decoded = raw.decode("utf-8", "replace")
            user, _, password = decoded.partition(":")
            # Bytes that are no text are random: a credential encoded, not a sample `user:pass`.
            if (user and check(password)) or (
                    len(m.group(1)) >= 16 and not decoded.isprintable() and check(m.group(1))):
                return m.start(), "basic auth credentials"
    if "-u" in text:
        for m in _CURL_USER_RE.finditer(text):
            if check(m.group(1)):
                return m.start(1), "password on a command line"
    low = text.lower()
    if "authorization" in low or "x-" in low:
        for m in _HEADER_RE.finditer(text):
            if check(m.group(1)):
                return m.start(), "credential in a request header"
    if 'value="' in low:
        for m in _XML_VALUE_RE.finditer(text):
            if check(m.group(1)):
                return m.start(), "password in a config value"
    if "</" in text:
        for m in _XML_ELEMENT_RE.finditer(text):
            if check(m.group("value")):
                return m.start(), "password in a config value"
    if "password " in low:
        netrc = _NETRC_RE.match(low)
        if netrc and is_password(text[netrc.start(1) : netrc.end(1)]):
            return netrc.start(1), "password in a netrc entry"
    if "-p" in text:
        mysql = _MYSQL_P_RE.search(text)
        if mysql and is_password(mysql.group(1)):
            return mysql.start(1), "password on a command line"
    return None
