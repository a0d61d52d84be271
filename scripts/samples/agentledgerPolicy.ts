// The policy decision objects AgentLedger's Python runtime records in `tool_permission_decided` and
// `tool_approval_required` payloads (shape as in the runtime's own exports; content is this sample's).
import { PyValue } from './pyjson';

/** How the local policy judges a tool. */
export interface ToolRisk {
  tool: string;
  risk: 'low' | 'high';
  tier: string;
  sideEffect: 'none' | 'workspace_write';
}

const AUDIT = { kind: 'audit', metadata: {}, reason: 'runtime decision must be recorded' };
const tierFinding = (tier: string): PyValue => ({
  evidence: { action_tier: tier }, id: 'action_tier_inferred', message: `action tier inferred as ${tier}`, severity: 'info', source: 'action_boundary',
});

/** The decision for a call, given the approval state of a high-risk tool. */
export function decision(t: ToolRisk, role: string, approval: 'NONE' | 'APPROVED'): { allowed: boolean; reason: string; decision: PyValue } {
  if (t.risk === 'low') {
    const reason = 'default allow for low/medium risk in local runtime';
    const findings: PyValue[] = [
      { evidence: { allowed: true, controls: [], decision_effect: 'allow', matched_rule: 'default_allow_low_medium', risk_level: t.risk, role, tool: t.tool }, id: 'default_allow_low_medium', message: reason, severity: 'info', source: 'role_capability' },
      tierFinding(t.tier),
    ];
    return { allowed: true, reason, decision: wrap(t, role, true, 'allow', [AUDIT], findings, [reason, `action tier inferred as ${t.tier}`]) };
  }
  if (approval === 'NONE') {
    const reason = 'high-risk action requires approval by default';
    const findings: PyValue[] = [
      { evidence: { allowed: false, controls: ['approval', 'audit'], decision_effect: 'require_approval', matched_rule: 'default_deny_high_risk', risk_level: t.risk, role, tool: t.tool }, id: 'default_deny_high_risk', message: reason, severity: 'warning', source: 'role_capability' },
      tierFinding(t.tier),
      { evidence: { approval_status: 'NONE', controls: ['approval', 'audit'], decision_effect: 'require_approval', risk_level: t.risk }, id: 'approval_required', message: 'approval required before action execution', severity: 'warning', source: 'action_boundary' },
    ];
    const controls = [{ kind: 'approval', metadata: {}, reason }, AUDIT];
    return { allowed: false, reason, decision: wrap(t, role, false, 'require_approval', controls, findings, [reason, `action tier inferred as ${t.tier}`, 'approval required before action execution']) };
  }
  const reason = 'high-risk action approved by policy gate';
  const findings: PyValue[] = [
    { evidence: { allowed: true, controls: ['audit'], decision_effect: 'allow', matched_rule: 'default_deny_high_risk', risk_level: t.risk, role, tool: t.tool }, id: 'default_deny_high_risk', message: reason, severity: 'info', source: 'role_capability' },
    tierFinding(t.tier),
    { evidence: { approval_status: 'APPROVED', controls: ['audit'] }, id: 'approval_satisfied', message: 'approval already satisfied', severity: 'info', source: 'action_boundary' },
  ];
  return { allowed: true, reason, decision: wrap(t, role, true, 'allow', [AUDIT], findings, [reason, `action tier inferred as ${t.tier}`, 'approval already satisfied']) };
}

function wrap(t: ToolRisk, role: string, allowed: boolean, effect: string, controls: PyValue[], findings: PyValue[], reasons: string[]): PyValue {
  return { action_tier: t.tier, allowed, controls, effect, findings, policy_version: 'local-v1', reasons, risk_level: t.risk, subject_scope: role };
}
