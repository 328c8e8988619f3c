# ruff: noqa: E501
"""Technical-chat precision set: engineering-team prose written for the bench, with its personal data labelled.

Why a second technical set: :mod:`bench.techtext` takes its sentences from the descriptions of installed Python
packages, and the masker's technology vocabulary is built from installed packages' names too, so that set flatters
it. These sentences come from elsewhere: they were written by hand, blind to the masking code, its tests and its
vocabulary, as the things engineering teams write to each other and to their agents -- chat messages, incident notes,
postmortems, tickets, code-review comments, stand-up notes, release notes, runbooks and notes for an agent's memory --
across many ecosystems that are not Python packages: mobile (Jetpack Compose, SwiftUI, Xcode, TestFlight), web
(Next.js, Vite, Playwright), JVM / .NET / Go / Rust / Ruby / Elixir / PHP tooling, cloud services and regions, data
tooling, devops and observability, SaaS tools, AI assistants, operating systems and hardware, file names and paths,
ticket keys, hostnames, commit hashes and sprint names, including product names that are also people's or places'
names (Jenkins, Julia, Alexa, Phoenix, Athena, Sonoma, Sydney region...).

Labels: about one sentence in four also carries personal data of made-up people, marked in :data:`SENTENCES` as
``⟦P:name⟧`` (PERSON: a colleague's name, a plain first name, or a chat handle such as ``@⟦P:maria⟧`` -- the handle's
name without the ``@`` is labelled; team handles such as ``@acme/platform`` are not people), ``⟦E:...⟧``
(EMAIL_ADDRESS, role addresses included), ``⟦T:...⟧`` (PHONE_NUMBER) and ``⟦L:...⟧`` (LOCATION, only where a place
tells where a person is: "I'm in ⟦L:Lisbon⟧ this week"). Cloud regions, data-centre and office names, countries in
a product context and product names carry no label: a mask on them is a false mask. Every personal datum is labelled,
so an unlabelled mask is a false mask. A few unlabelled strings are technical look-alikes on purpose
(``ubuntu@db-primary-02.internal``, ``git@github.com:...``, ``openssl@3``).

Split: :func:`part` puts a sentence in ``"held"`` when ``sha256("recmem-techchat-v1:" + text) % 100 < 50``, else
``"read"``. The held part is scored with ``keep_examples=False`` (its misses are never printed) so it can check a
fix made while reading the read part's false masks.

``python -m bench.techchat`` rewrites ``bench/data/techchat.json`` from :data:`SENTENCES` (the JSON is reproducible
from this module); ``manage.py bench_pii --techchat PATH`` scores it with :func:`bench.techtext.score`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

DATA_PATH = Path(__file__).resolve().parent / "data" / "techchat.json"
SPLIT_SALT = "recmem-techchat-v1:"
HELD_BACK_PERCENT = 50
TYPES = {"P": "PERSON", "E": "EMAIL_ADDRESS", "T": "PHONE_NUMBER", "L": "LOCATION"}
_MARK_RE = re.compile(r"⟦([PETL]):([^⟦⟧]+)⟧")

# One sentence a line; "@@ source" starts a group (genre / ecosystem). Labels are marked as described above.
SENTENCES = r"""
@@ chat/mobile
anyone else seeing Xcode 15.3 hang on "Indexing | Processing files" after the SwiftUI previews crash?
the Jetpack Compose BOM bump to 2024.02.00 broke our LazyColumn screenshot tests, reverting in MOB-882
TestFlight build 4.12.0 (1873) is up, external testers get it once Beta App Review clears it
Firebase Crashlytics shows a spike of NSInternalInconsistencyException in the checkout flow since 4.11.2 🙃
Android Studio Iguana keeps re-syncing Gradle every time I switch branches, is it just me?
@⟦P:kenji⟧ can you check the Kotlin Multiplatform shared module still builds for iosArm64 after the Ktor 2.3.9 upgrade?
we should turn Hermes on for Android too, the React Native 0.73 startup numbers look way better
fastlane match failed again on the Bitrise runner, the distribution certificate expired yesterday
Detox e2e on the iPhone 15 Pro simulator is flaky around the Face ID prompt, I'll quarantine that spec
Play Console rejected the AAB: the new Lottie version is missing the 64-bit native libs
SwiftData migration from Core Data works on iOS 17.2 but crashes on 17.0 with a schema mismatch
Expo SDK 50 dropped the old Metro config format, metro.config.js needs the new getDefaultConfig call
heads up: App Store Connect has maintenance on Saturday, don't plan a submission then
Hilt can't find the binding for AnalyticsRepository after the module split, classic
Room 2.6 schema export fails because room.schemaLocation is not set in build.gradle.kts
the Info.plist is missing NSCameraUsageDescription so App Review bounced the build again
⟦P:Siobhan⟧ is driving the release train this week, send her anything you want in 5.0
Capacitor 6 with Ionic on Android 14 needs the predictive back gesture opt-in
CocoaPods trunk is slow today; moving the Firebase pods to Swift Package Manager would save us this pain
The Flutter app crashes on Galaxy A14 devices running One UI 5.1 when Impeller is enabled.
Dart 3.3 extension types look nice for the API models but build_runner is noticeably slower
Coil vs Glide: Coil fits Compose better, Glide is what the old XML screens still use
The OkHttp logging interceptor prints full request bodies in release builds, strip it in the R8 rules.
Pixel 8 on the Android 15 beta draws the edge-to-edge insets wrong on the settings screen
the visionOS simulator won't start on my M1 MacBook Air, it needs macOS Sonoma 14.2 or later
Kotlin 2.0 K2 compiler cut our clean build from 7m10s to 4m55s on the CI runners 🎉
⟦P:Mateus⟧ found that the Compose compiler metrics flag every screen with an unstable List parameter
Crashlytics dSYM upload is failing in the Xcode Cloud workflow, so iOS crashes show up unsymbolicated
WorkManager periodic sync is killed on Xiaomi MIUI devices, battery optimisation again
@⟦P:ayse⟧ @⟦P:mateus⟧ can one of you review the SKIE config for the KMP coroutines bridge?
Firebase Remote Config fetch is throttled in debug builds, set minimumFetchInterval to 0 locally
Universal links stopped opening the app after the apple-app-site-association file moved behind Cloudflare
The App Distribution group "qa-android" has the 5.1.0-rc2 APK, please test the new paywall
⟦P:Kenji Watanabe⟧ is the account holder for the Apple Developer Program, only he can accept the new agreement
@@ chat/web
Next.js 14 app router: revalidatePath isn't busting the cache on Vercel preview deployments
Remix loaders run on the server only, so don't import the browser Stripe.js helper in there
Switched Storybook to the Vite builder, cold start went from 48s to 9s
Playwright's trace viewer is perfect for this, attach trace.zip to the ticket
Cypress component tests keep timing out on CI since the Chrome 122 headless change
Tailwind can't see classes built with string concatenation, write out the full class name
Svelte 5 runes are still RC, not touching them until SvelteKit supports them properly
Vitest in watch mode eats 4GB on my laptop in the monorepo, anyone tuned poolOptions?
pnpm install fails with ERR_PNPM_PEER_DEP_ISSUES after the React 18.3 bump
Turborepo remote cache hit rate dropped to 12% after we changed the env var hashing
esbuild minification mangled a property the Ember resolver depends on, turned off mangleProps
The Angular 17 control-flow migration went fine except for the Material table templates.
Nuxt 3 with Nitro on Cloudflare Pages works, but the image module needs the ipx provider disabled
Astro for the marketing site, Next.js for the app, let's not mix the two
The Webpack 5 module federation setup in the old dashboard still ships two copies of React.
TanStack Query devtools show staleTime is 0, so every window focus refetches the whole order list
prisma migrate deploy hangs on the Neon branch, looks like the pooler in transaction mode
tRPC errors land in Sentry as 500s because we never map the TRPCError codes
Safari 17 on iOS still breaks the position: sticky header inside the overflow container
Lighthouse gives the product page 62 on mobile, mostly LCP from the hero image
@⟦P:lena⟧ your Chromatic run for the Button stories shows 214 changes, is that the font swap?
Deno Deploy vs Cloudflare Workers for the edge redirects: Workers already has KV and Durable Objects wired up
Bun 1.1 runs the unit tests 3x faster but jest.mock hoisting isn't compatible yet
ESLint flat config: eslint.config.js replaces .eslintrc.cjs and the airbnb preset hasn't been ported
the Zustand store persists to localStorage under "cart-v2", bump the key whenever the shape changes
Vite 5 dev server returns 504 "Outdated Optimize Dep" after switching branches, delete node_modules/.vite
Apollo Client cache normalises by id, so the two Product types with the same id overwrite each other
Relay compiler complains about the @connection key after the schema rename on the Hasura side
Redux Toolkit's RTK Query or TanStack Query, pick one for the new admin, not both
⟦P:Tomás⟧ says the Storybook interaction tests pass locally but fail in the GitHub Actions runner with a font timeout
Puppeteer PDF export renders the invoice without the web fonts on the Lambda layer
the SolidJS prototype is fast but nobody on the team knows it, Qwik even less
WebdriverIO on BrowserStack is 3x the cost of running Playwright on our own runners
jQuery is still loaded on the checkout page because of the old Zendesk widget
Backbone views in the legacy admin get rewritten screen by screen, the Orders screen is next
MobX observers don't rerender when you mutate a plain Map, use observable.map
@@ chat/backend
Spring Boot 3.2 with virtual threads (Project Loom) halved the thread count on the orders service
Gradle configuration cache is finally green on the payments service, builds went from 6 minutes to 2
Quarkus native image on GraalVM 21 takes 11 minutes on the CI runner, too slow for every PR
Flyway V42__add_invoice_index.sql failed on prod with a lock timeout on the invoices table
Ktor client with the CIO engine leaks threads if you never close the HttpClient
Maven Central rejected our release because the javadoc jar was empty
Temurin 21 vs Corretto 21 as the base image: Corretto is 40MB bigger but has the AWS patches
Hibernate 6 changed the enum mapping, every query on orders now casts to varchar
ASP.NET Core 8 minimal APIs: keep scoped services out of the singletons or the DbContext leaks across requests
Entity Framework Core generated a DROP COLUMN for the rename, write that migration by hand
NuGet restore is slow on the Windows Server 2022 build agents, turn on the locked-mode cache
.NET MAUI Android build fails with XA5207, the API 34 platform is not installed on the agent
The Serilog sink to Seq stopped writing after we rotated its API key.
go 1.22's loop variable change fixed the flaky goroutine test in the scheduler package
golangci-lint v1.57 enabled a new linter by default, CI is red on 40 files, pinning the version
pprof says 60% of CPU is in encoding/json, trying sonic on the hot path
sqlc doesn't know the pgvector column type, we need an override in sqlc.yaml
cargo build on the Raspberry Pi 5 takes 25 minutes for the agent binary, cross-compile in CI instead
clippy complains about needless_lifetimes everywhere after the Rust 1.77 toolchain bump
tokio panicked with "Cannot start a runtime from within a runtime", it's the block_on in the axum handler
serde's rename_all = "camelCase" breaks the webhook payload because Stripe sends snake_case
Tauri 2 beta signs the macOS app but notarization fails on Sequoia with an entitlement error
Rails 7.1 upgrade: Sidekiq 7 needs Redis 6.2+, and the ElastiCache cluster is still on 5.0.6
Puma workers get OOM-killed on Heroku, the Performance-M dyno only has 2.5GB
RuboCop autocorrect reformatted all of app/models, please don't mix that with logic changes
Phoenix LiveView 0.20 changed phx-update, the chat component stopped appending messages
Oban jobs are stuck in "executing" after the node restart, we need the Lifeline plugin
Elixir 1.16 on Erlang/OTP 26 in Alpine needs ncurses or iex won't start
Crystal compile times are fine for the CLI, but Windows support is still a preview
the Julia notebook for the pricing model runs out of memory on the Databricks driver
Laravel Horizon shows the mail queue at 18k jobs, SendGrid is rate-limiting us
Symfony Messenger retries 3 times with a multiplier of 2, failures land in the failure transport
Composer 2.7 refuses the abandoned guzzle plugin, replace it before the PHP 8.3 upgrade
Micronaut's AOT compilation broke the Jackson serialisation of the sealed interfaces
Mockito can't mock the final Kotlin classes unless mockito-inline is on the test classpath
JUnit 5 parallel execution made the Testcontainers Postgres tests flaky, same container reused
Liquibase changelog checksum mismatch on staging because someone edited an applied changeset
IntelliJ IDEA 2024.1 indexes the monorepo in 3 minutes now, exclude the generated sources folder
Rider on the M2 is fine for the .NET services, Visual Studio for Mac is dead anyway
Dapper query with a list parameter expands to IN (@p0, @p1, ...) and hits the 2100 parameter limit on SQL Server
Polly retry policy on the HttpClient retries POSTs too, make sure the payments call is idempotent
Hangfire recurring job "nightly-export" runs twice because two servers share the same queue name
MassTransit consumer on RabbitMQ stops after the broker restart, enable the auto-recovery
⟦P:Dmitri⟧ benchmarked axum vs actix-web for the ingestion service, actix wins by 8% on p99, not worth the switch
Spring Cloud Gateway drops the X-Forwarded-Prefix header, so the Swagger UI links are wrong
Gin middleware order matters: the recovery middleware must come before the logger to catch panics
the GORM AutoMigrate in main.go dropped an index on prod, never again, migrations go through atlas
Diesel's compile times are killing us, sqlx with offline mode builds much faster
Bevy prototype for the warehouse simulator runs at 60fps on the Steam Deck, fun side project
⟦P:Ngozi Okafor⟧ wants the Kotlin services on the Gradle version catalog before the Spring Boot 3.3 bump
@@ chat/cloud
moving the read replicas from eu-west-1 to eu-central-1 (Frankfurt) for the data residency requirement
us-west-2 (Oregon) had elevated Lambda error rates from 14:05 to 14:40 UTC according to the AWS Health Dashboard
the Sydney region (ap-southeast-2) doesn't have the g5 capacity we need, try ap-southeast-4 in Melbourne?
Tokyo (ap-northeast-1) is the primary for the Japan tenants, Osaka (ap-northeast-3) only holds the backups
Fargate tasks can't pull from ECR after the VPC endpoint change, the S3 gateway endpoint is missing
Cognito triggers time out at 5 seconds, move the CRM sync out of the pre-token-generation Lambda
an Athena query on the CloudTrail bucket scanned 2.3TB, partition projection would fix that
Aurora Serverless v2 scaled to 64 ACUs at month end, cap it at 32 and see whether Kinesis consumers keep up
the Step Functions express workflow hits the 5 minute limit on the large invoices
EventBridge Pipes from SQS to the Lambda would replace our hand-rolled poller
GCP: Cloud Run min instances is 1 for the API, the Pub/Sub push subscription keeps it warm anyway
BigQuery slot usage spiked when the Looker PDTs rebuilt at 06:00 UTC
the Vertex AI endpoint in europe-west4 costs 1,900 USD a month sitting idle, scale it to zero or delete it
Cloud Spanner regional config in asia-northeast1 is enough for us, multi-region is overkill
Azure: the AKS node pool upgrade to 1.29 is blocked by the PodDisruptionBudget on the ingress controller
The Entra ID app registration used by the Okta SCIM bridge expires in 30 days.
Cosmos DB RU consumption doubled after the partition key change, West Europe only
Bicep what-if wants to recreate the App Service plan, do NOT apply that
Cloudflare Workers CPU limit is 50ms on the bundled plan, the image resizing worker needs unbound
The Fastly VCL snippet now strips utm_ parameters from the cache key; purge-all after the deploy.
Vercel preview deployments are public by default, turn on Vercel Authentication for the admin app
Netlify build minutes ran out on the 24th because the docs site builds on every Dependabot PR
Heroku is migrating the mini Postgres plans, our staging add-on moves next week
Fly.io machines in fra and sin, the sin ones have double the p95
Render's free tier spins down after 15 minutes, that's why the webhook receiver misses Stripe events
Supabase service role bypasses RLS, so the admin script doesn't need the profiles policy
DigitalOcean Spaces CDN endpoint changed, update the asset host in config/environments/production.rb
Hetzner CX41 boxes in Falkenstein cost a tenth of the c6i equivalent for the CI runners
S3 Intelligent-Tiering on the logs bucket saves about 600 USD a month, lifecycle rule to Glacier after 90 days
CloudFront function for the security headers is 1 KB over the size limit
Route 53 health check on api.example.com flaps every few minutes because the /healthz endpoint hits the database
The IAM role ci-deployer has AdministratorAccess, scope it down to the ECS and ECR actions
AWS Backup vault lock is in compliance mode, nobody can delete the recovery points for 35 days, not even us
Google Workspace SSO via Okta is fine, but the GKE RBAC groups still come from Google Groups
Azure DevOps pipelines for the .NET monolith stay until the GitHub Enterprise migration finishes
the ALB idle timeout is 60s, the report export takes 90s, so users get a 504 from the load balancer
São Paulo region (sa-east-1) is 60% more expensive for the same RDS instance class
Mumbai (ap-south-1) gets the new tenant for the India launch, data cannot leave the region
Cloudflare R2 has no egress fees, we should move the public downloads there from S3
@@ chat/data
dbt run --select state:modified+ rebuilt 140 models because the manifest artifact was stale
warehouse TRANSFORM_XL was left running all weekend in Snowflake, 410 credits 😬
Airflow 2.8 scheduler lags, parsing takes 90s because of top-level imports in dags/marketing_attribution.py
Dagster asset checks on fct_orders fail whenever the Fivetran Shopify sync is late
the Looker explore for Revenue still uses the old fct_payments view, repoint it to the dbt model
Tableau extract refresh for the Exec dashboard failed with "Connection timed out" on Tableau Cloud
Databricks job cluster on DBR 14.3 LTS can't read the Unity Catalog volume, grant READ VOLUME to the service principal
Kafka Connect S3 sink is 3h behind on orders.v2, the task is stuck in a rebalance loop
a Debezium snapshot of the 400M-row events table locks the replica, use incremental snapshots instead
the Flink checkpoint grew to 80GB, state TTL is not set on the sessionization job
Spark 3.5 AQE coalesced down to 4 partitions and the join spilled to disk
ClickHouse MergeTree with ORDER BY (tenant_id, ts) made the dashboard queries 20x faster
DuckDB on a laptop handles the 30GB parquet export fine, no cluster needed for this analysis
Great Expectations flags null emails in the customers table, expected for guest checkouts
The Airbyte Salesforce connector hit the daily API limit at 11:00, so the sync now runs every 6h.
Segment's BigQuery destination drops events whose property names are longer than 128 characters
Amplitude and Mixpanel disagree on DAU by 7% because only one filters bots
Metabase question 1182 is what finance uses, don't rename the columns in that view
Superset on Kubernetes needs the Celery workers for async queries or SQL Lab times out
Iceberg compaction on the lakehouse runs nightly through the Trino procedure
Monte Carlo alerted on freshness of dim_customers; the Hightouch sync to HubSpot is what cares downstream
Amundsen is indexed from the Hive metastore and DataHub from the dbt artifacts, we should pick one
the Redshift RA3 pause schedule saved 30% last month
Firehose buffering of 5MB / 300s delays events too much for the realtime dashboard
Pinot vs Druid for the user-facing analytics: Pinot's upserts are the deciding feature
Prefect flow runs stuck in Pending because the work pool lost its workers after the ECS deploy
⟦P:Priyanka Iyer⟧ set up the Snowflake key-pair auth for Airflow, ask her before touching those connections
dbt tests on stg_stripe__charges fail because Stripe added a new payment_method_details type
Hex notebook with the churn model is shared with the whole company by accident, fixing the permissions
the Delta Lake VACUUM with 0 hours retention broke time travel for the audit team
OpenLineage events from Airflow show up in Marquez, but the Spark jobs are missing the listener
Kafka topic payments.events has 48 partitions and retention of 7 days, compacted topics are the .state ones
Schema Registry rejected the new Avro schema, the field removal isn't BACKWARD compatible
Stitch is being replaced by Fivetran for the Postgres replication, the Zendesk source stays on Stitch for now
@⟦P:hamza⟧ the Kafka Connect workers restarted again at 03:10, is that the JVM heap thing?
the Dataflow streaming job in us-central1 has 12 workers idle at night, enable autoscaling
⟦P:Julia Novak⟧ wrote the Julia notebook for pricing, so she knows why it runs out of memory
Mode reports still query the old Redshift cluster, they'll break when we turn it off in June
Looker's PDT regenerator and the dbt Cloud job both run at 06:00, stagger them
Beam pipeline on Flink runner fails with a serialization error in the DoFn for the Avro records
Sigma workbook for sales ops points at the prod schema, that's fine because it's read-only
MotherDuck for the ad-hoc analytics could replace the small Redshift cluster
@@ chat/devops
terraform plan wants to destroy aws_db_instance.primary because someone changed engine_version by hand
state lock on s3://acme-tfstate/prod/network.tfstate held since 09:12, who's running apply?
pulumi preview shows a replace on the GKE cluster, but the node config diff is only labels
Ansible site.yml fails on the bastion because Debian Bookworm minimal has no python3
ArgoCD app payments-api is OutOfSync, Chart.yaml got the new version but values-prod.yaml didn't
helm upgrade --install failed: "another operation (install/upgrade/rollback) is in progress"
the Grafana "API latency" panel uses rate() over 1m, with a 30s scrape interval that's too noisy
Prometheus is at 2.1M active series, the buckets on http_request_duration_seconds are the culprit
Datadog custom metrics went up 40% after we added the new tags to the queue workers
Sentry release health: crash-free sessions at 99.2% for 4.12.0, up from 98.7
PagerDuty escalation for payments now goes to the secondary after 10 minutes
Honeycomb BubbleUp shows the slow requests all come from tenant 8812 and its huge cart
Loki query {app="checkout"} |= "timeout" returns nothing because the label is service, not app
Jaeger traces stop at the Envoy sidecar, the b3 headers aren't propagated
the OpenTelemetry collector is dropping spans, the batch processor queue is full
Thanos compactor halted with overlapping blocks after the Prometheus restart
Vault agent injector can't renew the Kubernetes auth token, pods restart every hour
Consul intentions deny the new reporting service, we need an allow rule for it
Nomad job for the batch exporter is pending because the client nodes lack the docker driver
Harbor garbage collection deleted untagged manifests that the Argo CD Image Updater still referenced
Kong's rate-limiting plugin uses the local policy, so with 3 replicas the real limit is 3x
Istio 1.21: ambient mode's ztunnel doesn't support our EnvoyFilter
Tekton pipelines for the mobile builds are being replaced by GitHub Actions on macos-14 runners
Spinnaker canary analysis was flaky, we're moving deploys to Argo Rollouts
the Jenkins controller is out of disk again, /var/lib/jenkins/workspace is at 380GB
the old Hudson plugins from 2012 are still installed on the Jenkins box, nobody dares remove them
the GitHub Actions cache for ~/.gradle is 9GB, we're hitting the 10GB repo limit
.gitlab-ci.yml: the docker:dind service needs DOCKER_TLS_CERTDIR set to "" on the shared runners
Karpenter consolidated nodes at 3am and evicted the Kafka brokers, add the do-not-disrupt annotation
cert-manager failed the ACME DNS-01 challenge because the Cloudflare token is scoped to zone:read
Velero backup of the monitoring namespace fails on the PVC snapshot
Renovate opened 63 PRs overnight, can we group the eslint ones?
Trivy flags CVE-2024-3094 in the xz package of debian:bookworm-slim, rebuild on the patched base
Snyk and Dependabot both open PRs for the same lodash bump, disable one of them
Tailscale ACLs: the tag:ci machines can reach db-primary-02.internal on 5432 only
Teleport session recording is required for any kubectl exec into production
Backstage catalog-info.yaml is missing in 30 repos, so the scorecard is all red
the Splunk universal forwarder on the Windows Server hosts stopped after the Patch Tuesday reboot
Fluent Bit multiline parser splits the Java stack traces into separate log lines in Kibana
Grafana Mimir replaced the Cortex cluster, remote_write URLs need updating in the agents
Pyroscope shows the GC pauses in the Go ingestion service come from the proto unmarshalling
Opsgenie heartbeat for the backup job didn't fire, but the backup ran fine, the curl at the end failed
Traefik IngressRoute for the grafana host is missing the middleware for basic auth
Caddy in front of the staging box renews the Let's Encrypt cert on its own, no certbot cron
HAProxy on lb-edge-01 sends the health checks to /ping, the new service only answers /healthz
Packer build for the Ubuntu 22.04 AMI fails at the cloud-init wait on the t3.micro
Vagrant + VirtualBox doesn't work on Apple Silicon, use the UTM or Lima setup from the wiki
Crossplane composition for the RDS instances is stuck Synced=False because of the provider version
Flux reconciles every 10 minutes, force it with flux reconcile kustomization apps --with-source
Rancher UI shows the downstream cluster as Unavailable, the cattle-cluster-agent lost its token
Longhorn volume degraded on node k8s-worker-05, one replica is rebuilding
Ceph cluster HEALTH_WARN: 1 pool(s) have no replicas configured, that's the scratch pool, ignore it
SonarQube quality gate fails on coverage for new code, 74% vs the 80% threshold
Semgrep rule for the raw SQL f-strings found 12 hits in the reporting service
Wiz flagged the public S3 bucket acme-marketing-assets, it's intentional, add the exception
CrowdStrike Falcon sensor on the build agents slows down the Gradle builds by 30%
@⟦P:zofia⟧ is the ArgoCD ApplicationSet for the preview envs yours? it's creating 40 namespaces
Buildkite agents on the spot fleet get interrupted mid-build, move the release pipeline to on-demand
CircleCI resource class large is enough, xlarge didn't speed up the Jest shards at all
TeamCity on-prem is going away at the end of Q3, the Android builds move to GitHub Actions
Drone CI for the legacy PHP repo still works, nobody touches it
Octopus Deploy tentacles on the Windows Server 2019 hosts need the new TLS 1.2 registry keys
@@ chat/saas
Jira automation moves PLAT tickets to Done when the PR merges, but ignores the ones linked from Linear
the Confluence page "Runbook: payments failover" is out of date since the Aurora migration
Linear cycle 31 ends Friday, carry over ENG-2210 and ENG-2214
Figma dev mode shows the spacing tokens as 12/16/24, the Tailwind config has 12/14/24
Slack huddle in #inc-2024-031 now, the bridge link is in the channel topic
Zoom webhook signature verification broke after they changed the secret token format
Okta SCIM provisioning created duplicate users in Zendesk because the email casing differs
Auth0 Actions replaced our Rules, the post-login action adds the org_id claim
Stripe webhook returns 400 for invoice.payment_succeeded since the API version bump to 2023-10-16
Twilio Verify SMS to UK numbers is delayed, their status page says the carriers are degraded
the Salesforce sandbox refresh wiped the connected app, the HubSpot sync needs a new client ID
the Intercom to Zendesk macro migration is done, tags still need mapping
LaunchDarkly flag new-checkout-flow is at 25% in production, ramp to 50 on Monday
Algolia index products_prod_v3 hit the record size limit on the bundles
The Retool refunds app calls the admin API with the support role, not the admin one.
op run from the 1Password CLI injects the env vars for local dev, no more .env files pasted in Slack
the Loom of the onboarding bug is linked in the ticket
Gong and Salesforce opportunity IDs stopped matching after the dedupe
Notion roadmap page is the source of truth, the Jira epics link back to it
Miro board from the Q3 planning is linked at the top of the Notion page
Statsig and LaunchDarkly both evaluate the pricing experiment, remove the Statsig gate
the Zapier zap that posts new Typeform answers to Slack is on a personal account, move it to the team plan
Adyen webhooks retry for 30 days, the Braintree ones only 3 times, so the reconciliation job must cover both
PayPal sandbox is down again, skip the PayPal e2e suite today
Postmark bounce webhook is what marks the users as undeliverable, not Mailgun anymore
Workday to BambooHR sync for the org chart runs at midnight, Okta groups update after that
Greenhouse job board embed is broken on the careers page after the Next.js upgrade
Airtable base for the vendor inventory is hitting the 50k record limit
ClickUp import into Linear lost the subtasks, we'll redo the big ones by hand
Zendesk Sunshine Conversations is needed for the WhatsApp channel, talk to the vendor
Google Meet recordings land in the organiser's Drive, not the shared drive, heads up for the retro
Microsoft Teams connector for the alerts is deprecated, use the Workflows app
@⟦P:lars⟧ could you add the Figma plugin for the design tokens to the org allowlist?
Intercom Fin answers 38% of the tickets alone now, the rest go to the tier 1 queue in Zendesk
the HubSpot workflow that emails trial users fires twice when the Segment identify call repeats
Okta Workflows deprovisioning removes the GitHub org membership but not the Snowflake user
@@ chat/ai
Claude 3.5 Sonnet writes better migrations than Copilot for us, but it invents flags for the gcloud CLI
Gemini 1.5 Pro's long context took the whole Terraform repo, Bard never could
we run Llama 3 8B and Mistral 7B on Ollama for the offline eval, Mixtral on vLLM on the A100 box
Falcon 40B was too slow on a single H100, dropped it from the comparison
the Siri shortcut for the on-call app just opens the PagerDuty deep link
Alexa skill certification failed because the invocation name "ship log" is too generic
Cortana in Teams is gone, the meeting bot has to go through the Graph API
GitHub Copilot content exclusions now cover the infra/secrets folder
Whisper large-v3 transcribes the incident bridge recordings, pyannote does the diarization
Cursor's agent mode rewrote the whole file instead of the one function, careful on generated code
Gemma 2 9B fits in the 24GB of the RTX 4090, so does Qwen2 7B
Claude Haiku is fast enough for the triage bot, Opus only for the weekly summary
the Claude Code session ran the migrations against the dev database, not staging, good
DeepSeek Coder V2 gets the Rust lifetimes right more often than CodeLlama in our little eval
Phi-3 mini on the Jetson for the offline kiosk assistant, latency is about 40 tokens/s
Vicuna and Alpaca are in the eval sheet only for history, nobody uses them
the Copilot Chat answer about the Kafka Connect config was wrong, it mixed up the Confluent and Strimzi operators
Bixby and Google Assistant app actions are out of scope for v1, Siri shortcuts only
LM Studio on the M3 Max runs the 70B quantised model at 8 tokens per second, fine for demos
Midjourney images aren't allowed in the marketing site, only licensed stock or the Figma illustrations
Stable Diffusion XL on the g5.xlarge takes 6 seconds per image, good enough for the internal tool
the Grok API has no EU data residency, so it's out for the support summaries
⟦P:Hannah⟧ compared Sonnet and Gemini on our runbook questions, results are in the Notion page
Qdrant vs Weaviate vs pgvector: pgvector wins because we already run Postgres 16
Pinecone serverless index in us-east-1, the embeddings come from the text-embedding-3-small model
Chroma in the local dev setup, Milvus was too heavy for a laptop
@@ chat/os
brew upgrade broke the openssl@3 linking for the Ruby build on macOS Sonoma, rbenv needs RUBY_CONFIGURE_OPTS
Xcode 16 needs macOS Sonoma 14.5 or newer, so the Ventura build agents have to be upgraded
the Monterey Mac mini in the rack is stuck on Xcode 14.2, time to retire it
Big Sur machines can't install the current Docker Desktop anymore
Catalina dropped 32-bit apps, that's why the old Perforce client won't launch
we still have a Yosemite VM for the legacy installer signing, don't ask
High Sierra and Mojave are out of the support matrix for the desktop app from 3.0
macOS Sequoia's local network permission prompt breaks the dev server access from the iPhone
El Capitan is the oldest OS X the crash reports still show, 11 users in the last 90 days
Ubuntu 22.04 Jammy runners ship Python 3.10, the 24.04 Noble images have 3.12
Debian Bookworm ships OpenSSL 3.0, so MD4 in the NTLM proxy is gone unless we load the legacy provider
Debian Bullseye LTS ends in 2026 but Trixie is not released yet, we go to Bookworm now
Amazon Linux 2 reaches end of life in 2025, move the AMIs to AL2023
Alpine's musl resolver doesn't use search domains like glibc, that's the kube-dns timeout
Windows 11 23H2 with WSL2: the Docker Desktop VHDX grew to 120GB, compact it with diskpart
the Raspberry Pi 4 kiosks run Raspberry Pi OS Bookworm, and Wayland broke the Chromium kiosk flags
Jetson Orin Nano for edge inference, JetPack 6 comes with CUDA 12.2
the M2 MacBook Pro builds the iOS app in 4 minutes, the Intel i9 ones take 11
ThinkPad X1 Carbon Gen 11 on Fedora 40 has the fingerprint reader working out of the box
Graviton3 c7g.2xlarge is 20% cheaper for the Go services, we need arm64 images
AMD EPYC Milan vs Genoa for the ClickHouse nodes: Genoa gives about 30% more QPS
Sapphire Rapids (m7i) has AMX, not useful for our workload
the NixOS flake for the dev shell pins Node 20.11 and Terraform 1.7.5
RHEL 9 in FIPS mode rejects the SHA-1 signatures on the old RPM repo
Android 14 (target SDK 34) is required on Google Play from August
Rocky Linux 9 and AlmaLinux 9 both pass the installer tests, CentOS 7 is dropped
Arch on the Framework laptop works fine for backend work, just not for the iOS builds
WSL2 clock drift after sleep breaks the AWS SSO token, run hwclock -s
iPadOS 17 Stage Manager resizes our app window to sizes we never tested
watchOS 10 complications moved to WidgetKit, the old ClockKit code can go
tvOS app is frozen, no new features, security fixes only
Steam Deck runs the Electron build under Proton fine, no native Linux build needed
Chromebook users on ChromeOS 120 report the PWA install button missing
the Dell XPS 15 with Ubuntu 24.04 has the suspend bug with the NVIDIA driver 550
Intel NUC in the office closet runs the Home Assistant and the build status lamp
@@ chat/files
~/Library/Developer/Xcode/DerivedData is 74GB on my machine, rm -rf it and rebuild
~/Library/Application Support/Code/User/settings.json has the format-on-save settings we agreed on
C:\Program Files\Git\bin\bash.exe is the shell the Windows agents need in the Jenkinsfile
the nginx.conf on lb-edge-01 still has proxy_read_timeout 30s, the export endpoint needs 120s
the Dockerfile uses node:20-bookworm-slim, the multi-stage build copies only dist/ and node_modules/
.env.example is missing STRIPE_WEBHOOK_SECRET, so new folks can't run the webhook locally
Cargo.toml has resolver = "2" but the wasm crate still pulls getrandom with the std feature
build.gradle.kts: move the Compose compiler version into gradle/libs.versions.toml
/etc/systemd/system/export-worker.service needs Restart=on-failure
/var/log/nginx/error.log is full of "upstream prematurely closed connection while reading response header"
~/.kube/config still has the old EKS context, run aws eks update-kubeconfig --region eu-central-1 --name prod-eu
docker-compose.override.yml mounts ./fixtures into the postgres container for the local seeds
.github/workflows/release.yml uploads the dSYMs to Crashlytics after the archive step
CODEOWNERS: /infra/ belongs to @acme/platform and /mobile/ to @acme/mobile
go.sum mismatch for github.com/aws/aws-sdk-go-v2 after someone edited go.mod by hand
the @/components alias from tsconfig.json doesn't resolve in Jest, add a moduleNameMapper
Podfile.lock conflict again, regenerate it with pod install --repo-update on your branch
AndroidManifest.xml needs android:exported="true" on the deep link activity for API 31+
terraform/modules/vpc/main.tf hardcodes 10.40.0.0/16, which collides with the office VPN range
ansible/inventory/prod/hosts.ini still lists kafka-broker-4, which we decommissioned in March
Package.swift pins swift-collections to 1.0.x, the new swift-syntax needs 1.1
C:\ProgramData\Datadog\datadog.yaml on the Windows hosts has the wrong site, it should be datadoghq.eu
the .terraform.lock.hcl only has darwin_arm64 hashes, run terraform providers lock for linux_amd64 too
vite.config.ts sets server.hmr.clientPort to 443 for the Codespaces setup
next.config.js has output: "standalone" so the Docker image doesn't need node_modules
/opt/homebrew/bin comes before /usr/local/bin in PATH on the Apple Silicon Macs, that's why the old protoc is picked
values-prod.yaml sets replicaCount: 6 but the HPA minReplicas is 4, the HPA wins
kustomization.yaml in overlays/staging patches the image tag, don't edit base/deployment.yaml for that
settings.gradle includes :feature:checkout twice after the merge
the Makefile target make proto regenerates the Go and TypeScript clients from api/v1/*.proto
gradle.properties has org.gradle.jvmargs=-Xmx6g, the 8GB CI runners swap with that
@@ incident
INC-2024-031: checkout error rate 18% from 13:52 to 14:37 UTC, root cause an expired intermediate certificate in the Fastly TLS config
Timeline: 02:14 PagerDuty paged the primary, 02:21 acknowledged, 02:40 failover of db-primary-02 to db-replica-03 complete
Impact: 4,120 failed payments, all recovered by Stripe Smart Retries within 24h
Root cause: a terraform apply removed the security group rule for the Redis cluster
Contributing factor: the Datadog monitor was muted for the maintenance window and never unmuted
What went well: Argo Rollouts aborted the canary after 2 failed analysis runs
Action item PLAT-1290: alert in Sentry on the 5xx rate of the webhook consumer
Detection took 34 minutes because the Grafana alert still routed to the deprecated #alerts-legacy channel
Incident commander: ⟦P:Oluwaseun Adeyemi⟧, comms: ⟦P:Chiara Romano⟧, scribe: ⟦P:Wei Zhang⟧
the Cloudflare incident at 11:43 UTC took out Workers KV reads, our feature flags fell back to defaults
we hit the Lambda concurrency limit of 1,000 in us-east-1 during the Black Friday email blast
consumer group billing-events lagged 2.3M messages after kafka-broker-2.prod.internal lost its disk
the Statuspage update went out at 14:05, the second one was 40 minutes late
the old record in Route 53 had a 48h TTL, so some resolvers kept sending traffic to the Heroku app
post-incident review Thursday 15:00 CET in the Zoom room "Apollo"
rollback to release 2024.03.2 (commit 7e1c9ab) brought the p99 back to 240ms
the Elasticsearch cluster went red when the disk watermark hit 95% on es-data-05
Memcached evictions spiked when the Sidekiq batch cached 40k product pages
⟦P:Rafael⟧ was primary on call, ⟦P:Ingrid Halvorsen⟧ was secondary and took over at 03:00
reporter: ⟦E:kofi.mensah@example.com⟧ from support, customer ticket #58213 in Zendesk
the customer who reported it, ⟦P:Marisol Vega⟧ (⟦E:m.vega@example.net⟧), confirmed the fix at 16:20
SEV-2 declared by ⟦P:Tamar Cohen⟧ at 09:47, downgraded to SEV-3 at 11:10 after the Consul leader election settled
the Aurora failover took 31 seconds, the app's connection pool took 6 more minutes to notice
⟦P:Bongani⟧ noticed the Grafana panel flatlined before any alert fired, thanks for the eyes
Mitigation: scaled the Karpenter NodePool to on-demand only and drained the spot nodes
ping ⟦P:Chidi⟧ on ⟦T:+234 803 555 0192⟧ if the Nigerian card processor is down again, he has the vendor contact
the Twilio outage affected SMS OTP for 22 minutes, users on the Authenticator app were fine
@@ postmortem
We assumed the Kafka producer retries were idempotent; enable.idempotence was false on the legacy client.
The runbook pointed to a Grafana dashboard that was deleted in the Mimir migration.
Nobody owned the cron on the old Jenkins box, so the nightly export silently stopped for 9 days.
The Vault token TTL of 768h expired on a Sunday and the CI could not pull any secrets until Monday.
Lesson: a Helm rollback does not roll back the CRDs, the cert-manager upgrade has to be reverted by hand.
The Snowflake resource monitor only notified; it should have suspended the warehouse at 100%.
Five whys pointed at the missing integration test for the Debezium schema change.
Follow-ups are tracked in Linear under the project "Checkout resilience Q2".
⟦P:Aleksander Nowak⟧ will write the Terraform guardrail for security group deletions (PLAT-1302)
⟦P:Fatemeh Rezaei⟧ and ⟦P:Lars Eriksen⟧ own the action items on alert routing, due end of sprint 42
Thanks to ⟦P:Sofia Lindgren⟧ for the quick rollback and to ⟦P:Emeka⟧ for the customer comms
The blast radius was limited because the EU tenants in eu-central-1 use a separate Redis cluster.
@@ ticket
PLAT-1234: upgrade the EKS clusters from 1.27 to 1.29 before extended support pricing kicks in
MOB-903 [iOS] Crash in PaymentSheet on iPadOS 17.3 when rotating during the 3DS challenge
DATA-417 Backfill fct_subscriptions for 2021 after the Chargebee migration
WEB-3391: Storybook build fails on Node 21 with ERR_OSSL_EVP_UNSUPPORTED
SEC-77: rotate the Snowflake service user's key pair and store it in Vault
OPS-518 Decommission nagios-legacy.dc1 once the Prometheus alerts are ported
Acceptance criteria: the export works for tenants with more than 1M rows and the CSV opens in Excel and Numbers
Steps to reproduce: Pixel 7, Android 14, dark mode on, open Settings > Notifications, the toggle is invisible
Expected: the Compose preview renders. Actual: "Render problem: java.lang.NoSuchMethodError"
Labels: backend, kafka, tech-debt. Epic: Project Nightingale
Story points: 5. Blocked by INFRA-212 (VPC peering for the Snowflake PrivateLink)
MOB-911 Android: WebView file upload doesn't open the camera on Samsung Internet
WEB-3402 Safari 16.4: the date picker shows the wrong month in the Remix booking form
DATA-430 the Tableau "Weekly KPIs" workbook times out after the Snowflake warehouse downsize
INFRA-219 Move the Ansible AWX instance from the Ubuntu 18.04 VM to the Kubernetes operator
SUP-1207: customer can't log in with Okta SSO after their IdP certificate rotation
Reporter: ⟦P:Ayşe Demir⟧. Assignee: ⟦P:Piotr Zieliński⟧. Priority: P2. Component: mobile-android
SUP-1211 requested by ⟦E:anais.dupont@example.org⟧: export the audit log for March as CSV
PLAT-1315 ⟦P:Hiroshi Sato⟧ to pair with ⟦P:Greta Brandt⟧ on the Istio ambient mode spike
Customer contact for the SSO escalation: ⟦P:Liam O'Connell⟧, ⟦T:+353 87 555 0143⟧, ⟦E:liam.oconnell@example.com⟧
MOB-920 TestFlight invite for ⟦E:yara.haddad@example.net⟧ never arrived, resend from App Store Connect
SEC-81: Dependabot alert for axios 1.6.0 (CVE-2023-45857) in the admin frontend
DATA-433: dbt snapshot on dim_accounts creates duplicates when updated_at has the same timestamp
OPS-530 The Raspberry Pi in the Oslo office that runs the door display needs the Bookworm upgrade
WEB-3410 Next.js Image component returns 400 for the Cloudinary loader with the new domains config
@@ review
nit: prefer `Result<T, AppError>` over `anyhow::Result` at the API boundary so the status codes stay explicit
this `useEffect` re-subscribes on every render because the callback isn't wrapped in `useCallback`
can we use `LazyVerticalGrid` here instead of nesting `Row`s in a `LazyColumn`?
please don't catch `Throwable` in the coroutine, it swallows `CancellationException`
LGTM once the Flyway migration is split, schema and data changes shouldn't share a version
the `@MainActor` on the view model makes the network call hop to the main thread
why `sync.Map`? a plain map with a mutex is clearer and this isn't read-heavy
the Dockerfile runs as root, add `USER 10001` before the `ENTRYPOINT`
this Terraform `count` reindexes everything if someone removes a middle element, use `for_each`
suggestion: put the Stripe client behind a NestJS provider so the e2e tests can mock it
`unwrap()` on the config parse will panic in production, return a proper error
`monthly_revenue.sql` could use `QUALIFY` instead of the subquery, Snowflake supports it
blocking: this adds a NOT NULL column without a default to a 200M-row table
approve with nits, `helm template` output is identical to main apart from the labels
`@Transactional` on a private method does nothing in Spring, the proxy can't see it
the `LaunchedEffect(Unit)` will not restart when `userId` changes, key it on `userId`
prefer `structuredClone` over the JSON round trip, dates survive it
`SELECT *` in the Looker derived table pulls 140 columns, list the ones the explore uses
`kubectl apply --prune` in the deploy script is dangerous without the allowlist, please drop it
`AsyncImage` caches nothing on iOS 16, use Nuke or Kingfisher for the feed
good catch @⟦P:wei⟧, the `Arc<Mutex<_>>` was held across an `.await`
@⟦P:tamar⟧ this duplicates the retry logic in `PaymentsClient`, can you reuse that one?
⟦P:Rustam⟧'s suggestion to move the Kafka consumer config into the Helm values makes sense, let's do that
approved, but wait for ⟦P:Élodie⟧'s review on the Terraform part before merging
@@ standup
Yesterday: finished the Gradle 8.6 upgrade. Today: Compose compiler metrics. Blockers: none
today pairing with ⟦P:Aarav⟧ on the Snowflake cost dashboard
OOO Friday, ⟦P:Zofia⟧ covers the on-call handover
- merged the Helm chart refactor
- ArgoCD sync waves for the DB migrations, PR up
- blocked on the Okta admin for the SCIM token
yesterday I fought with Xcode signing all day, today TestFlight upload and the SwiftUI paywall
🚢 shipped the Playwright sharding, CI went from 22 to 9 minutes
today: Debezium connector for the invoices table, then reviews
blocked: need a Databricks workspace admin to create the SQL warehouse
⟦P:Noor⟧ is out sick today, I'll take her Terraform review
I'm in ⟦L:Lisbon⟧ until Thursday, so expect replies on WET
working from ⟦L:Nairobi⟧ this week, the 10:00 standup is 12:00 for me, still fine
⟦P:Björn⟧ is flying to ⟦L:Seattle⟧ for the AWS summit, so his Vault review waits until Monday
back in ⟦L:Kraków⟧ on Monday, I'll pick up the Kotlin Multiplatform ticket then
⟦P:Chiara⟧ is back in ⟦L:Milan⟧ on Monday and will finish the EPYC Genoa vs Milan benchmark then
heads up, I'm at my parents' in ⟦L:Porto Alegre⟧ next week with flaky wifi, async only
⟦P:Keanu⟧ is onsite in ⟦L:Honolulu⟧ with the customer, don't expect him in the Zoom standup
today: Sentry source maps for the Remix app, then the Vitest migration
done: Kafka Connect S3 sink config in Git, next: the Flink job's state TTL
⟦P:Piotr⟧ and I finished the Spring Boot 3.3 upgrade, only the Micronaut service is left
no update, still deep in the Cosmos DB partition key migration
⟦P:Mei⟧: the Android 15 edge-to-edge fixes are in 5.1.0-rc3, please retest on the Pixel 8
I'm dialing in from ⟦L:Cape Town⟧ today, load shedding might cut me off around 14:00
⟦P:Sanjay⟧ is relocating to ⟦L:Toronto⟧ next month, he'll move to the Americas on-call rotation
today I'm on the Backstage templates, ⟦P:Astrid⟧ is on the Crossplane compositions
ran the Lighthouse CI budgets, LCP is 2.1s now on the product page
⟦P:dario⟧ pls approve the Renovate group PR when you're back 🙏
@@ release
v2.14.0: dark mode for the Android widget, SwiftUI rewrite of onboarding, fixed the Crashlytics symbol upload
Requires iOS 16 or later; iOS 15 users stay on 2.13.x
Breaking: /v1/exports is removed, use /v2/exports with cursor pagination
Helm chart 3.0.0 renames ingress.className, see UPGRADING.md
Desktop 1.8 is notarized for macOS Sequoia and signed with the new EV certificate on Windows
CLI 0.9.3: `acme deploy --dry-run` now prints the Terraform plan summary
Fixed: the Slack notification for failed Airflow DAGs linked to the wrong run
Web 2024.11.2: Next.js 15, React 19 RC, Tailwind 4 alpha behind a flag
Android 5.1.0 (build 5102) is rolling out at 20% on Google Play, halt button is in the Play Console
Known issue: Chrome 124 on Windows renders the charts blurry at 125% scaling
Deprecated: the Python 3.8 SDK, please use the 3.9+ build
Thanks to ⟦P:Leilani Kahananui⟧ and ⟦P:Matías Fernández⟧ for the Kotlin Multiplatform port
API 2024-06: webhooks are signed with Ed25519, the HMAC header goes away in 2025-01
Server 4.2 supports PostgreSQL 16 and drops PostgreSQL 11
@@ runbook
1. SSH via the bastion: ssh -J bastion.eu.internal ubuntu@db-primary-02.internal
2. Check replication lag: SELECT now() - pg_last_xact_replay_timestamp();
If lag is over 60s, page the DBA on call through the PagerDuty service "Postgres"
Promote the replica with aws rds promote-read-replica --db-instance-identifier db-replica-03
then flip the CNAME in Route 53 and purge the Fastly service
kubectl -n payments rollout restart deploy/payments-api
kubectl cordon ip-10-40-3-17.eu-central-1.compute.internal before draining it
run ./scripts/rotate-certs.sh --env prod --dry-run first and read the diff
vault kv get secret/payments/stripe only works from the ops VPN
If the Kafka Connect task is FAILED, restart it: curl -X POST connect.internal:8083/connectors/s3-sink/tasks/0/restart
Snowflake: ALTER WAREHOUSE TRANSFORM_XL SUSPEND; then check the resource monitor
If the iOS build fails on code signing, run fastlane match appstore --readonly on the Mac mini
Escalation: platform on call first, then ⟦P:Oluwaseun⟧ (⟦T:+44 7700 900461⟧), then the VP Eng
Vendor escalation for Fastly: ⟦E:tam-team@example.com⟧, account manager ⟦P:Megan Holloway⟧
If the NOC can't reach you on Slack they call the on-call phone, ⟦T:+1 (415) 555-0148⟧
Clone with git clone git@github.com:acme/payments-infra.git and run make bootstrap
Restore the Velero backup: velero restore create --from-backup nightly-20240312 --include-namespaces monitoring
Datadog synthetic for the login page is paused during the Okta maintenance, unpause it after
Check the ArgoCD app health before and after: argocd app get payments-api --refresh
The DR region is us-west-2; the switch is the Terraform variable active_region in envs/prod/terraform.tfvars
@@ agent-note
Remember: the staging Kafka cluster is kafka-stg-01..03.internal and uses SASL/SCRAM, not mTLS
Note for the agent: always run make lint before proposing a PR in the billing repo
store this: the Looker model "finance" belongs to the data platform team, changes need a DATA ticket
remember that ⟦P:Priyanka⟧ owns the Airflow deployment and ⟦P:Hamza⟧ owns Kafka Connect
fact: the iOS app's bundle id is com.acme.shop and the Android applicationId is com.acme.shop.android
preference: ⟦P:Kenji⟧ wants Kotlin code reviewed with ktlint and Detekt before a human looks at it
the team decided to use Drizzle instead of Prisma for the new Bun services (ADR-017)
context for next session: we're mid-way through the Jenkins to GitHub Actions migration, 41 of 73 jobs done
the Terraform state for the Cloudflare account lives in the cloudflare/ workspace, not the main one
decision: Grafana Tempo over Jaeger for traces, because Loki and Mimir are already there
⟦P:Siobhan O'Reilly⟧ prefers release notes in the CHANGELOG.md format, not the GitHub release UI
the user ⟦P:Wei⟧ asked to be reminded to rotate the Apple push certificate before 2024-09-30
on-call contact for the Snowflake account is ⟦P:Fatemeh⟧, ⟦E:fatemeh.rezaei@example.com⟧
⟦P:Lars Eriksen⟧ can be reached at ⟦T:+47 912 55 014⟧ for anything about the Oslo datacenter lease
the project codename Orion is the new search backend on OpenSearch, Atlas is the MongoDB Atlas migration
Athena (our internal admin app, not the AWS service) is built with Retool and talks to the admin API
the Hermes service sends the transactional email through Postmark, Mercury is the SMS side on Twilio
Phoenix is the rewrite of the checkout in Next.js, not the Elixir framework
Titan is the GPU cluster name, the nodes are titan-gpu-01 to titan-gpu-08 with A100s
sprint 43 is called "Kestrel", sprint 44 "Magnolia"; the names come from the team wiki list
⟦P:Tom Jenkins⟧ is migrating our Jenkins jobs to GitHub Actions, yes really
⟦P:Alexa Moreno⟧ owns the Alexa skill and the Google Assistant action
⟦P:Ruby Nakamura⟧ from support says the Rails admin shows the wrong currency on the Zendesk tickets
⟦P:Aurora Lindqvist⟧ is leading the move from RDS Postgres to Aurora PostgreSQL
@@ chat/people
ask ⟦P:Priyanka Iyer⟧ before changing the Airflow pools, she tuned them for the month-end load
⟦P:Lars⟧ is on call this week, his number is ⟦T:+47 912 34 567⟧ if PagerDuty doesn't reach him
our Datadog account rep is ⟦P:Megan Holloway⟧ (⟦E:megan.holloway@example.com⟧), she can raise the log quota
⟦P:Kenji⟧'s TestFlight invite went to ⟦E:kenji.w@example.org⟧ instead of his work address
cc @⟦P:ayse.demir⟧ for the Kotlin Multiplatform review, she wrote the expect/actual layer
call me on ⟦T:+49 151 2345 6789⟧ if the Frankfurt cutover goes sideways tonight
⟦P:Camille Marchand⟧ is the admin of the Apple Developer account, mail ⟦E:camille.marchand@example.com⟧ for new seats
thx @⟦P:priya⟧ for the dbt macro, the incremental model runs in 4 min now
⟦P:Wei Zhang⟧ and ⟦P:Hiroshi⟧ are rewriting the Flink job in Kafka Streams
⟦P:Amara⟧ said the Figma variables export is ready for the Tailwind tokens
DM ⟦P:Rafael Souza⟧ for access to the Sentry org, he is the owner
new joiner ⟦P:Tiago Carvalho⟧ starts Monday, please add him to the GitHub team and Linear
my phone is dead, reach me on ⟦T:+33 6 12 34 56 78⟧ for the rest of the release
⟦P:Hana Kobayashi⟧ is presenting the Snowflake cost review at the all-hands
@⟦P:jonas⟧ the Storybook deploy on Chromatic is yours now, congrats 😄
I'm in ⟦L:Berlin⟧ for KubeCon next week, ping me if the ArgoCD upgrade needs a hand
⟦P:Freya⟧ is working from ⟦L:Reykjavík⟧ until the 20th, so her standups are async
⟦P:Kwame Asante⟧ from the ⟦L:Accra⟧ team will own the Flutter app from Q3
⟦P:Noor Al-Sayed⟧ is out until Tuesday, route the Auth0 questions to ⟦P:Emeka⟧
can someone with Okta admin add ⟦E:greta.brandt@example.net⟧ to the AWS SSO group?
⟦P:Sven⟧ set up the Loki retention, 14 days for debug and 90 for audit
the contractor ⟦P:Mohammed Al-Sayed⟧ (⟦E:mohammed@contractor.example.com⟧) needs read access to the staging Grafana only
the support line for the Apple enterprise account is ⟦T:+1 408 555 0172⟧, ⟦P:Camille⟧ has the case number
⟦P:Ravi⟧ is doing the Rust workshop on Thursday, tokio and axum basics
@⟦P:mei.lin⟧ can you send me the Crashlytics link for the 5.1 ANR?
⟦P:Ji-woo Park⟧ is covering the ⟦L:Seoul⟧ customer visit, she'll demo the SwiftUI app on an iPad
the Jetson box is at ⟦P:Dario⟧'s place while the office is closed, he's in ⟦L:Turin⟧
⟦P:Zainab⟧ and ⟦P:Yara⟧ will pair on the Svelte rewrite of the embed widget
my new number is ⟦T:+91 98765 43210⟧, please update the PagerDuty contact method
⟦P:Matías⟧ just landed in ⟦L:Buenos Aires⟧, he'll handle the Mercado Pago integration call from there
⟦P:Ingrid⟧ wants the Terraform PRs to include the plan output as a comment
⟦P:Élodie Marchand⟧ is the security champion for the mobile team, run the SEC tickets by her
say hi to ⟦P:Kofi⟧, he's joining the data platform team and will start with the dbt CI
⟦P:Bongani Dlamini⟧ will be in ⟦L:Johannesburg⟧ for the datacenter audit, he's reachable on ⟦T:+27 82 555 0147⟧
the Stripe contact for the Connect migration is ⟦P:Daniel Okoro⟧, ⟦E:daniel.okoro@example.com⟧
⟦P:Astrid⟧ is at a wedding in ⟦L:Bergen⟧, no laptop until Monday
⟦P:Hamza Qureshi⟧ finished the Kafka Connect upgrade to 3.6, no more rebalance storms so far
@⟦P:sofia⟧ could you rerun the Playwright shard 3? it failed on the Safari WebKit download
⟦P:Aleksander⟧ says the Graviton images are ready, he tested them on a c7g.large in eu-central-1
forward the Zendesk escalation to ⟦E:support-lead@example.com⟧ and cc ⟦P:Marisol⟧
⟦P:Chen Jing⟧ built the Looker dashboard for the Kafka lag, it's pinned in #data-platform
I'm ⟦P:Tamar⟧'s backup for the Vault unseal keys while she's in ⟦L:Tel Aviv⟧
⟦P:Mateus⟧ is visiting the ⟦L:São Paulo⟧ office next week, so the Android sync moves to Wednesday
please send the signed DPA back to ⟦E:legal@example.org⟧, ⟦P:Anaïs Dupont⟧ is waiting for it
⟦P:Oskar⟧ from the Ubuntu infra team wants the Jammy images rebuilt after the kernel CVE
the interviewer panel for the iOS role is ⟦P:Kenji⟧, ⟦P:Hana⟧ and ⟦P:Jonas Weber⟧
⟦P:Nguyen Thi Lan⟧ wrote the Compose Multiplatform prototype for the desktop app
⟦P:Siobhan⟧ is in ⟦L:Dublin⟧ for the Stripe Sessions afterparty, no deploys from her tonight
WhatsApp me on ⟦T:+55 11 91234 5678⟧ if the Pix webhook breaks during Carnival
⟦P:Leilani⟧'s MacBook is the only one with the Xcode 14 simulator runtime, ask her for the iOS 15 repro
⟦P:Greta⟧ moved to the security team, the Snyk org is now owned by ⟦P:Piotr⟧
@@ chat/mixed
⟦P:Diego⟧ merged the Pulumi stack for the Azure Container Apps, preview envs work again
ok so ⟦P:marta⟧ found the bug: the Next.js middleware runs on the Edge runtime and can't use the Node crypto module
⟦P:Oliver Bennett⟧ is the release captain for 5.2, branch cut is Thursday 10:00 UTC
@⟦P:kwame⟧ your Flutter golden tests fail on the Linux runner because of font hinting, regenerate them in Docker
the Ansible vault password file lives on ⟦P:Sven⟧'s laptop only, that's a bus factor of one
⟦P:Yuki Tanaka⟧ ran the k6 load test against staging: 2,400 rps before the Aurora writer hit 90% CPU
⟦P:Ravi Shankar⟧ (⟦E:ravi.shankar@example.com⟧) is our contact at the Databricks partner team
for the Auth0 tenant migration, email ⟦E:identity-team@example.org⟧ or ping ⟦P:Noor⟧
⟦P:Dmitri Volkov⟧ rewrote the Nomad job specs as Kubernetes manifests over the weekend, review pending
reminder: ⟦P:Carmen Ruiz⟧ is on parental leave from June, the Terraform modules go to ⟦P:Aleksander⟧
⟦P:Ayşe⟧ reproduced the crash on a Galaxy S23 with One UI 6, it's the WebView 122 regression
⟦P:Lukas Hoffmann⟧ from the vendor says the Kong Enterprise license renews on the 1st
thanks ⟦P:zainab⟧!! the Cypress flake was the intercept registered after cy.visit
⟦P:Olga⟧ has the only YubiKey registered for the AWS root account, we need a second one
⟦P:Marco Bianchi⟧ will demo the Dagster asset graph at the data guild on Friday
if the Jira Service Management queue overflows, escalate to ⟦P:Fatima Zahra⟧ at ⟦T:+212 661 555 014⟧
⟦P:Arjun⟧ and ⟦P:Lena⟧ are splitting the Storybook 8 migration, ⟦P:Arjun⟧ takes the MDX docs
@⟦P:tomasz⟧ the Grafana alert for the Kafka lag points at the wrong datasource after the Mimir switch
⟦P:Hyun-woo Lee⟧ is working from ⟦L:Busan⟧ this week, KST hours
⟦P:Ewa⟧ is on a train to ⟦L:Gdańsk⟧, she'll approve the Helm PR when she has signal
⟦P:Kenji⟧ tested the SwiftUI build on the iPhone SE, the bottom sheet clips on small screens
send the Crashlytics export to ⟦E:qa.mobile@example.com⟧, ⟦P:Mei⟧ triages it on Mondays
⟦P:Sebastián Morales⟧ owns the Stripe Tax integration, ask him about the Mexico VAT rules
⟦P:Ines⟧ is moving to ⟦L:Amsterdam⟧ in May, she keeps the Airflow on-call until then
⟦P:Chidi Okafor⟧ found the Envoy retry storm, the retry_on included 5xx for non-idempotent POSTs
our Okta admin ⟦P:Maya Goldberg⟧ can reset the MFA, her desk phone is ⟦T:+972 3 555 0199⟧
⟦P:Rohan⟧'s PR bumps Node to 20.12 in the Dockerfile and .nvmrc, and Volta in package.json
⟦P:Li Wei⟧ says the BigQuery reservation should go to 500 slots for the month-end close
@⟦P:oskar⟧ @⟦P:freya⟧ who is on the Datadog APM migration? the dashboards are half-ported
⟦P:Helena Costa⟧ signed off on the Snowflake data sharing agreement with the partner
the VPN issue on the M3 MacBook is ⟦P:Javier⟧'s, Tailscale 1.62 fixed it for him
⟦P:Gabriel⟧ is presenting the Spinnaker → Argo Rollouts migration plan, slides in Google Drive
⟦P:Nadia Petrova⟧ pointed out that the Cloud Run service account has Editor on the whole project
call the Twilio TAM ⟦P:Rachel Kim⟧ on ⟦T:+1 646 555 0133⟧ about the A2P 10DLC registration
⟦P:Thabo⟧ left the Bitrise workspace owner role to ⟦P:Mei⟧ before his last day
⟦P:Erik⟧ is in ⟦L:Stockholm⟧ until Friday for the Spotify Backstage meetup
⟦P:Ana Lima⟧ will run the Flyway baseline on the new Azure SQL database tonight
the GPU quota request in us-central1 went out under ⟦P:Samir Haddad⟧'s name, he gets the Google replies
⟦P:Lucía⟧ noticed that the Auth0 logs stream to Datadog stopped on the 3rd
⟦P:Jan Novák⟧ volunteered to maintain the internal Homebrew tap for the acme CLI
⟦P:Ahmed⟧ can't join the incident bridge, he's on a flight to ⟦L:Dubai⟧ until 18:00
⟦P:Priya⟧ updated the Confluence page on Looker access, with screenshots this time
⟦P:Sara Lindberg⟧ (⟦E:sara.lindberg@example.net⟧, ⟦T:+46 70 555 12 34⟧) is the Salesforce admin on the customer side
@@ chat/collisions
Cassandra 4.1 repairs on the events keyspace take 9 hours, Reaper schedules them weekly
the Luigi pipelines from 2017 still run the finance exports, Dagster replaces them in Q4
Karma + Jasmine tests in the AngularJS admin take 12 minutes, the Jest port is half done
sinon.useFakeTimers breaks the Mocha tests that rely on setImmediate
Zulu 17 on the Azure build agents vs Temurin locally explains the TLS handshake difference
Athena, Glue and Lake Formation permissions all have to line up, that's why the analyst gets AccessDenied
Aurora I/O-Optimized saves us 25% because the workload is I/O heavy
the React Native release build ships Hermes bytecode, the source maps need the compose-source-maps script
Info.plist still has LSMinimumSystemVersion 10.12 (Sierra), bump it to 12.0
Ventura moved the Full Disk Access toggle in System Settings, update the onboarding doc for the EDR agent
the macos-12 (Monterey) images are deprecated on GitHub Actions, move the jobs to macos-14
Cloudflare's Tokyo colo (NRT) had packet loss, Argo Smart Routing went around it
Envoy's outlier detection ejected half the pods during the deploy
Gemini in Google Workspace summarises the incident doc but can't follow the Jira links
Copilot Workspace drafted the Dependabot fix, the Gradle lockfile still needed a manual update
Sonnet vs Opus on our SQL generation evals: 78% vs 74%
Llama Guard flags half our Kubernetes questions as unsafe because of "kill" and "execute"
Mistral Large on Azure AI Studio is only in Sweden Central for now
EMR Serverless in eu-west-1 (Ireland) costs half of the Databricks jobs compute for the same Spark job
Azure UK South has no capacity for the NCasT4 VMs, we fall back to West Europe
the Stockholm region (eu-north-1) is the cheapest EU region for the batch workloads
Workers in the Frankfurt colo see 3ms to the eu-central-1 origin
Paris (eu-west-3) doesn't offer Claude on Bedrock yet, we call it in Frankfurt instead
Dart Sass replaced node-sass, so the build no longer needs Python on the Windows agents
the Ember Octane migration of the old billing UI is 70% done
the Elixir Broadway pipeline consumes from SQS with 10 processors
Ruby 3.3 with YJIT cut the p50 of the Rails API by 15%
config/credentials/staging.yml.enc needs the staging key from 1Password to decrypt
Harbor replicates to the DR registry every hour, Quay is only for the public images
Apollo Router replaced the Node gateway for the federated GraphQL schema
Mercury is the old name of the notifications service, the Helm release is still called mercury-prod
Atlas Search on the MongoDB cluster is good enough, no need for a separate Elasticsearch
Nightingale, Kestrel and Magnolia are sprint names, not projects, in case the agent asks
Sentinel policies in Terraform Cloud block any S3 bucket without encryption
Jaeger all-in-one is fine for local dev, production traces go to Tempo
Hudson was renamed Jenkins in 2011, and our shared library still has hudson.model imports
Vault's Raft storage replaced Consul as the backend, one less cluster to run
Nomad and Consul stay for the edge sites, Kubernetes everywhere else
Falcon (the Python web framework) is what the old ingestion API uses, not the LLM
Flutter web build size is 2.4MB gzipped, Dart deferred imports would cut the first load
Phoenix Channels handle 40k websocket connections per node on the c6g.xlarge
Crystal Reports exports from the legacy ERP land in the SFTP drop, the Airflow DAG picks them up
"""


def part(text: str) -> str:
    """``"held"`` or ``"read"``, by a hash of the sentence (see the module docstring)."""
    digest = hashlib.sha256((SPLIT_SALT + text).encode("utf-8")).hexdigest()
    return "held" if int(digest, 16) % 100 < HELD_BACK_PERCENT else "read"


def parse(marked: str) -> tuple[str, list[dict[str, Any]]]:
    """A marked sentence's plain text and its spans."""
    text, spans, pos = "", [], 0
    for m in _MARK_RE.finditer(marked):
        text += marked[pos : m.start()]
        value = m.group(2)
        spans.append({"type": TYPES[m.group(1)], "start": len(text), "end": len(text) + len(value)})
        text += value
        pos = m.end()
    text += marked[pos:]
    if "⟦" in text or "⟧" in text:
        raise ValueError(f"unbalanced label mark in {marked!r}")
    return text, spans


def build() -> list[dict[str, Any]]:
    """The set: ``[{"text", "spans": [{"type", "start", "end"}], "source", "part"}]``, in the order written."""
    records, source = [], "?"
    for line in SENTENCES.splitlines():
        line = line.strip()
        if not line:
            continue
        if line.startswith("@@ "):
            source = line[3:].strip()
            continue
        text, spans = parse(line)
        records.append({"text": text, "spans": spans, "source": source, "part": part(text)})
    return records


def write(records: Sequence[dict[str, Any]], path: Path = DATA_PATH) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load(path: Path = DATA_PATH) -> list[dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))


if __name__ == "__main__":
    write(build())
    print(f"wrote {DATA_PATH}")
