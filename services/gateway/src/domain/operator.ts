/**
 * A person (or system) holding an admin key. Every admin action is audited under its name, so the
 * key of one operator is never shared with another; ADMIN_API_KEY is the operator "bootstrap".
 */
export interface Operator {
  id: string;
  name: string;
  /** HMAC-SHA256(key, pepper), hex, as for merchant keys. The key itself is never stored. */
  key_hash: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}
