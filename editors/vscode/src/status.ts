// The capsule status bar item's words for each state the server reports (no VS Code API here,
// so test/status.test.js checks it with node).

/** The answer of the server's gemstack/capsuleState request. */
export interface CapsuleState {
  feature: string;
  state: string;
  capsule: string;
  featureUri: string;
  capsuleUri: string;
  exists: boolean;
  summary: string;
  findings: string[];
}

export const CAPSULE_STATE_REQUEST = "gemstack/capsuleState";

/** The words, icon and click of the status bar item for a state. */
export function capsuleStatusView(s: CapsuleState): { text: string; tooltip: string; command: string; alert?: string } {
  const icons: Record<string, string> = {
    VALID: "$(pass)",
    STALE: "$(warning)",
    MISSING: "$(circle-slash)",
    INVALID: "$(error)",
    LEGACY: "$(info)",
  };
  const regenerate = s.state === "STALE" || s.state === "MISSING" || s.state === "INVALID";
  const alert = s.state === "INVALID" ? "statusBarItem.errorBackground" : regenerate ? "statusBarItem.warningBackground" : undefined;
  const click = regenerate ? (s.exists ? "Click to regenerate it." : "Click to generate it.") : "Click to verify it.";
  return {
    text: `${icons[s.state] || "$(question)"} Capsule ${s.state}`,
    tooltip: `Context capsule of ${s.feature}: ${s.state}. ${s.summary} ${click}`,
    command: regenerate ? "gemstack.editor.regenerateCapsule" : "gemstack.editor.verifyCapsule",
    alert,
  };
}

