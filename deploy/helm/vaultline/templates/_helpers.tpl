{{/*
What the code decides, written once here (test-e2e/helm-chart.test.ts checks each against the code):
the services, each one's own secret variables (deploy/launcher/src/deploy-secrets.ts), which service calls
which (the services' internal clients: test-e2e/helm-network.test.ts derives it from them) and which call
the internet (the services that build an egress client).
*/}}
{{- define "vaultline.serviceNames" -}}
gateway vault forwarder importer payment-orchestrator notifier
{{- end -}}

{{- define "vaultline.ownSecretVariables" -}}
gateway: [API_KEY_PEPPER, ADMIN_API_KEY]
vault: [VAULT_KEK_KEYS, VAULT_KEK_ACTIVE_VERSION, VAULT_FINGERPRINT_KEY, IDEMPOTENCY_FINGERPRINT_KEY]
forwarder: [IDEMPOTENCY_FINGERPRINT_KEY]
importer: [IMPORTER_SECRET_KEY, IDEMPOTENCY_FINGERPRINT_KEY]
payment-orchestrator: [PAYMENT_ORCHESTRATOR_SECRET_KEY, IDEMPOTENCY_FINGERPRINT_KEY]
notifier: [NOTIFIER_SECRET_KEY, IDEMPOTENCY_FINGERPRINT_KEY]
{{- end -}}

{{/* Callee → the services that call its API port (the gateway: its internal port, 8081). */}}
{{- define "vaultline.callers" -}}
gateway: [importer]
vault: [gateway, forwarder]
forwarder: [gateway, payment-orchestrator]
importer: [gateway]
payment-orchestrator: [gateway]
notifier: [gateway]
{{- end -}}

{{- define "vaultline.internetEgress" -}}
[forwarder, importer, payment-orchestrator, notifier]
{{- end -}}

{{- define "vaultline.httpPort" -}}8080{{- end -}}
{{- define "vaultline.gatewayInternalPort" -}}8081{{- end -}}
{{- define "vaultline.metricsPort" -}}9464{{- end -}}
{{- define "vaultline.secretsDir" -}}/run/secrets/vaultline{{- end -}}
{{/* SIGTERM: unready and serving SHUTDOWN_DELAY_SECONDS, then draining for at most SHUTDOWN_GRACE_MS; preStop sleeps as long as the delay. */}}
{{- define "vaultline.shutdownDelaySeconds" -}}5{{- end -}}
{{- define "vaultline.shutdownGraceMs" -}}20000{{- end -}}
{{/* Processed-event marks (consumers' duplicate detection) are kept this long: above the topics' 7 days' retention. */}}
{{- define "vaultline.processedEventsRetentionDays" -}}14{{- end -}}

{{/* The port a service's callers reach it on. */}}
{{- define "vaultline.apiPort" -}}
{{- if eq . "gateway" -}}{{ include "vaultline.gatewayInternalPort" . }}{{- else -}}{{ include "vaultline.httpPort" . }}{{- end -}}
{{- end -}}

{{/* The enabled services, in order, as a space-separated list. */}}
{{- define "vaultline.enabledServices" -}}
{{- $names := list -}}
{{- range (include "vaultline.serviceNames" . | splitList " ") -}}
{{- if (index $.Values.services .).enabled -}}{{- $names = append $names . -}}{{- end -}}
{{- end -}}
{{- join " " $names -}}
{{- end -}}

{{/* Pod labels of a service: what its selectors match (never a version: selectors are immutable). Context: (dict "root" $ "service" name). */}}
{{- define "vaultline.selectorLabels" -}}
app.kubernetes.io/name: {{ .service }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- end -}}

{{- define "vaultline.podLabels" -}}
{{ include "vaultline.selectorLabels" . }}
app.kubernetes.io/part-of: vaultline
app.kubernetes.io/component: service
{{- end -}}

{{/* Labels of every resource's metadata (the chart's version here, never in a selector or a pod template). */}}
{{- define "vaultline.labels" -}}
{{ include "vaultline.podLabels" . }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "vaultline.commonLabels" -}}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/part-of: vaultline
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{/* <registry><repository>/<service>@<digest> when the service's values give a digest, else :<tag>. */}}
{{- define "vaultline.image" -}}
{{- $values := index .root.Values.services .service -}}
{{- $repository := $values.image.repository | default (printf "%s%s/%s" .root.Values.image.registry .root.Values.image.repository .service) -}}
{{- if $values.image.digest -}}
{{- if not (hasPrefix "sha256:" $values.image.digest) -}}{{- fail (printf "services.%s.image.digest must be sha256:<hex>, got %q" .service $values.image.digest) -}}{{- end -}}
{{- printf "%s@%s" $repository $values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository ($values.image.tag | default .root.Values.image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* The ConfigMap's data of a service: every non-secret variable, and the *_FILE paths of its secrets. */}}
{{- define "vaultline.config" -}}
{{- $root := .root -}}
{{- $service := .service -}}
{{- $values := index $root.Values.services $service -}}
{{- $dir := include "vaultline.secretsDir" . -}}
{{- $config := dict
  "VAULTLINE_ENV" $root.Values.environment
  "BUS_URL" (printf "kafka://%s" $root.Values.kafka.brokers)
  "KAFKA_SASL_MECHANISM" $root.Values.kafka.saslMechanism
  "KAFKA_TOPIC_PREFIX" $root.Values.kafka.topicPrefix
  "KAFKA_CREATE_TOPICS" (ternary "true" "false" $root.Values.kafka.createTopics)
  "PORT" (include "vaultline.httpPort" .)
  "HOST" "0.0.0.0"
  "PUBLIC_BASE_URL" $root.Values.publicBaseUrl
  "INTERNAL_JWT_PRIVATE_KEY_FILE" (printf "%s/private-key.pem" $dir)
  "INTERNAL_JWT_PUBLIC_KEYS_FILE" (printf "%s/public-keys.json" $dir)
  "INTERNAL_TLS_CA_FILE" (printf "%s/tls/ca.crt" $dir)
  "INTERNAL_TLS_CERT_FILE" (printf "%s/tls/tls.crt" $dir)
  "INTERNAL_TLS_KEY_FILE" (printf "%s/tls/tls.key" $dir)
  "KAFKA_SSL_CA_FILE" (printf "%s/tls/ca.crt" $dir)
  "REDIS_TLS_CA_FILE" (printf "%s/tls/ca.crt" $dir)
  "NODE_EXTRA_CA_CERTS" (printf "%s/tls/ca.crt" $dir)
  "OTEL_TRACES_EXPORTER" $root.Values.otel.tracesExporter
  "OTEL_EXPORTER_OTLP_ENDPOINT" $root.Values.otel.endpoint
  "METRICS_PORT" (include "vaultline.metricsPort" .)
  "SHUTDOWN_DELAY_SECONDS" (include "vaultline.shutdownDelaySeconds" .)
  "SHUTDOWN_GRACE_MS" (include "vaultline.shutdownGraceMs" .)
  "BUS_UNHEALTHY_AFTER_SECONDS" "30"
  "BUS_RETRY_MAX_ATTEMPTS" "12"
  "BUS_RETRY_BASE_DELAY_MS" "200"
  "BUS_RETRY_MAX_DELAY_SECONDS" "60"
  "PROCESSED_EVENTS_RETENTION_DAYS" (include "vaultline.processedEventsRetentionDays" .)
  "LOG_LEVEL" $root.Values.logLevel
-}}
{{- if $root.Values.kafka.groupPrefix }}{{ $_ := set $config "KAFKA_GROUP_PREFIX" $root.Values.kafka.groupPrefix }}{{ end -}}
{{- if $values.kafkaClientId }}{{ $_ := set $config "KAFKA_CLIENT_ID" $values.kafkaClientId }}{{ end -}}
{{/* Mutual TLS between the services: every internal URL is https:// (the gateway's internal listener for the gateway). */}}
{{- range (include "vaultline.serviceNames" . | splitList " ") -}}
{{- $_ := set $config (printf "%s_URL" (. | upper | replace "-" "_")) (printf "https://%s:%s" . (include "vaultline.apiPort" .)) -}}
{{- end -}}
{{- range (concat (list "MONGO_URL" "REDIS_URL" "KAFKA_SASL_USERNAME" "KAFKA_SASL_PASSWORD") (index (include "vaultline.ownSecretVariables" . | fromYaml) $service)) -}}
{{- $_ := set $config (printf "%s_FILE" .) (printf "%s/%s" $dir .) -}}
{{- end -}}
{{- if eq $service "gateway" -}}
{{- $_ := set $config "GATEWAY_INTERNAL_HOST" "0.0.0.0" -}}
{{- $_ := set $config "GATEWAY_INTERNAL_PORT" (include "vaultline.gatewayInternalPort" .) -}}
{{- if $root.Values.edge.trustProxy }}{{ $_ := set $config "TRUST_PROXY" (toString $root.Values.edge.trustProxy) }}{{ end -}}
{{- if eq $root.Values.edge.tls.mode "gateway" -}}
{{- $_ := set $config "TLS_CERT_FILE" (printf "%s/edge/tls.crt" $dir) -}}
{{- $_ := set $config "TLS_KEY_FILE" (printf "%s/edge/tls.key" $dir) -}}
{{- else if eq $root.Values.edge.tls.mode "proxy" -}}
{{- if not $root.Values.edge.trustProxy }}{{ fail "edge.tls.mode proxy needs edge.trustProxy: the proxy that terminates TLS" }}{{ end -}}
{{- $_ := set $config "EDGE_TLS_TERMINATED_BY_PROXY" "true" -}}
{{- else -}}
{{- fail (printf "edge.tls.mode must be gateway or proxy, got %q" $root.Values.edge.tls.mode) -}}
{{- end -}}
{{- end -}}
{{- if and $root.Values.egressProxy.url (has $service (include "vaultline.internetEgress" . | fromYamlArray)) -}}
{{- $_ := set $config "EGRESS_PROXY_URL" $root.Values.egressProxy.url -}}
{{- end -}}
{{- range $name, $value := $values.env -}}
{{- $_ := set $config $name (toString $value) -}}
{{- end -}}
{{- toYaml $config -}}
{{- end -}}

{{/* The pod's secrets as files under /run/secrets/vaultline: the layout compose mounts from deploy/secrets/<service>/. */}}
{{- define "vaultline.secretsVolume" -}}
- name: secrets
  projected:
    # Readable by the image's user (uid 1000, group 1000 via fsGroup), by nobody else.
    defaultMode: 0440
    sources:
      - secret: { name: {{ .service }}-secrets }
      - secret: { name: {{ .service }}-internal-jwt, items: [{ key: private-key.pem, path: private-key.pem }] }
      - secret: { name: vaultline-internal-jwt-public-keys, items: [{ key: public-keys.json, path: public-keys.json }] }
      - secret:
          name: {{ .service }}-internal-tls
          items:
            - { key: tls.crt, path: tls/tls.crt }
            - { key: tls.key, path: tls/tls.key }
            - { key: ca.crt, path: tls/ca.crt }
      {{- if and (eq .service "gateway") (eq .root.Values.edge.tls.mode "gateway") }}
      - secret:
          name: {{ .root.Values.edge.tls.secretName }}
          items:
            - { key: tls.crt, path: edge/tls.crt }
            - { key: tls.key, path: edge/tls.key }
      {{- end }}
{{- end -}}

{{- define "vaultline.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: 1000
runAsGroup: 1000
fsGroup: 1000
seccompProfile: { type: RuntimeDefault }
{{- end -}}

{{- define "vaultline.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities: { drop: [ALL] }
{{- end -}}
