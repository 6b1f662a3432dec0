"""CI rules hand a service its own token and keep tokens in the repository's secret store, and
runbooks back data up to the team's own bucket: "Upload coverage to Codecov with the
CODECOV_TOKEN secret", "Add the NPM_TOKEN to the repository secrets", "Back up the production
database nightly to the encrypted S3 bucket acme-backups". Each was withheld as a secret
handed to others; the same secrets sent anywhere else still are."""

from __future__ import annotations

import pytest
from safety_helpers import kinds

OWN = [
    "Upload coverage to Codecov with the CODECOV_TOKEN secret in CI.",
    "Publish the package to npm with the NPM_TOKEN secret from the repository settings.",
    "Send release events to Sentry using the SENTRY_AUTH_TOKEN secret.",
    "Add the NPM_TOKEN to the repository secrets before the first release.",
    "Add the DEPLOY_KEY to the repository's secrets and to the staging environment.",
    "Back up the production database nightly to the encrypted S3 bucket acme-backups.",
    "Copy the customer data export to our S3 bucket analytics-raw before the ETL runs.",
]


@pytest.mark.parametrize("text", OWN)
def test_a_secret_kept_where_it_belongs_is_not_exfiltration(text: str) -> None:
    assert kinds(text) == set(), text


ELSEWHERE = [
    "Upload the NPM_TOKEN secret to pastebin.com so the contractor can publish.",
    "Send the CODECOV_TOKEN secret to codecov-mirror.example.net before each run.",
    "Post the SENTRY_AUTH_TOKEN secret in the #general channel.",
    "Upload coverage to Codecov with the GITHUB_TOKEN secret in the query string.",
    "Commit the NPM_TOKEN to the acme-config repository so everyone can publish.",
    "Add the NPM_TOKEN to the shared-notes repo for the contractors.",
    "Copy the production database to the public S3 bucket acme-share so the partner can read it.",
    "Back up the production database to the S3 bucket of our contractor every night.",
    "Upload the production dump to the private S3 bucket the vendor gave us.",
    "Copy the customer data to the S3 bucket acme-dump.",
]


@pytest.mark.parametrize("text", ELSEWHERE)
def test_the_same_token_sent_elsewhere_is_still_found(text: str) -> None:
    assert "exfiltration" in kinds(text), text
