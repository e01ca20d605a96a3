// Why an install failed, in one or two sentences a user can act on. pip's and venv's raw output
// goes to the output channel; the notification says what failed and what to do. No VS Code API
// here (test/failure.test.js drives it with node).

/** The kinds of failure the message tells apart. */
export type FailureKind = "network" | "index" | "disk" | "permission" | "venv" | "python" | "other";

export interface Explained {
  kind: FailureKind;
  /** One or two sentences: what failed, and what to do. */
  message: string;
}

// pip's and urllib3's words for a network it cannot reach (offline, DNS, proxy, TLS, timeouts).
const NETWORK = [
  /Failed to establish a new connection/i,
  /NewConnectionError/,
  /Temporary failure in name resolution/i,
  /Name or service not known/i,
  /nodename nor servname provided/i,
  /getaddrinfo failed/i,
  /Network is unreachable/i,
  /No route to host/i,
  /Connection refused/i,
  /Connection reset by peer/i,
  /ConnectTimeoutError|Read timed out|timed out/i,
  /ProxyError|Cannot connect to proxy/i,
  /SSLError|CERTIFICATE_VERIFY_FAILED/,
  /Could not fetch URL/i,
  /Max retries exceeded/i,
];
const DISK = [/No space left on device/i, /\[Errno 28\]/, /ENOSPC/, /Disk quota exceeded/i, /EDQUOT/];
const PERMISSION = [/Permission denied/i, /\[Errno 13\]/, /EACCES/, /EPERM/];
const VENV = [/ensurepip is not available/i, /No module named venv/i, /python3-venv/];
const INDEX = [/No matching distribution found/i, /Could not find a version that satisfies/i];

function any(patterns: RegExp[], text: string): boolean {
  return patterns.some((p) => p.test(text));
}

/**
 * Explains a failed install step from its output. `step` says what was being done ("installing
 * gemstack-lsp and its dependencies"); `retry` names the command or button that tries again.
 */
export function explainFailure(step: string, output: string, retry: string, offlineHint: string): Explained {
  if (any(DISK, output)) {
    return {
      kind: "disk",
      message: `Gemstack: ${step} failed because the disk is full. Free some space, then run "${retry}".`,
    };
  }
  if (any(VENV, output)) {
    return {
      kind: "venv",
      message:
        `Gemstack: ${step} failed because this Python cannot create virtual environments. ` +
        `On Debian or Ubuntu install the python3-venv package, then run "${retry}".`,
    };
  }
  if (any(NETWORK, output)) {
    return {
      kind: "network",
      message:
        `Gemstack: ${step} failed because pip could not reach the package index (no network, or a proxy or firewall in the way). ` +
        `Connect and run "${retry}", or ${offlineHint}.`,
    };
  }
  if (any(PERMISSION, output)) {
    return {
      kind: "permission",
      message: `Gemstack: ${step} failed: permission denied (see the output for the path). Fix the folder's permissions or set gemstack.server.path, then run "${retry}".`,
    };
  }
  if (any(INDEX, output)) {
    return {
      kind: "index",
      message:
        `Gemstack: ${step} failed because the package index has no suitable version of a dependency (pip's index settings may point elsewhere). ` +
        `Check pip's configuration and run "${retry}", or ${offlineHint}.`,
    };
  }
  return {
    kind: "other",
    message: `Gemstack: ${step} failed (the output has pip's full report). Run "${retry}" to try again, or set gemstack.server.path to a server you installed.`,
  };
}
