<?php
// receiver.php — run with: WEBHOOK_SECRETS=<new>,<old> php -S 0.0.0.0:8080 receiver.php
// (or as a script of your web server: Apache, nginx + PHP-FPM). PHP ≥ 7.4, nothing to install.

const SIGNATURE_HEADER = 'HTTP_X_SERVICE_SIGNATURE'; // agent platform: 'HTTP_X_PLATFORM_SIGNATURE'
const TOLERANCE_SECONDS = 300;

/** True when one v1 of the header is the HMAC-SHA256 of "<t>.<raw body>" under one of the secrets. */
function verify_webhook(string $raw, string $header, array $secrets, ?int $now = null): bool
{
    $timestamp = null;
    $signatures = [];
    foreach (explode(',', $header) as $part) {
        [$key, $value] = array_pad(explode('=', trim($part), 2), 2, '');
        if ($key === 't' && ctype_digit($value)) $timestamp = (int) $value;
        if ($key === 'v1' && preg_match('/^[0-9a-f]{64}$/', $value)) $signatures[] = $value;
    }
    if ($timestamp === null || !$signatures) return false;
    if (abs(($now ?? time()) - $timestamp) > TOLERANCE_SECONDS) return false; // a replayed old delivery
    foreach ($secrets as $secret) {
        $expected = hash_hmac('sha256', $timestamp . '.' . $raw, $secret);
        foreach ($signatures as $given) {
            if (hash_equals($expected, $given)) return true; // constant time, unlike ===
        }
    }
    return false;
}

$raw = file_get_contents('php://input'); // the exact bytes; json_decode + json_encode do not verify
$secrets = array_values(array_filter(explode(',', getenv('WEBHOOK_SECRETS') ?: ''))); // new and old during a rotation
if (!verify_webhook($raw, $_SERVER[SIGNATURE_HEADER] ?? '', $secrets)) {
    http_response_code(400);
    exit('invalid signature');
}
http_response_code(202); // answer within 5 s: queue slow work, or call fastcgi_finish_request() first
$event = json_decode($raw, true);
// drop repeats by $event['id'] (kept 7 days), then handle $event['type'] and $event['data']
