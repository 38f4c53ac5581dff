/**
 * A failed dispatch of a pending entry (a queued message or steer, a recall), one statement for both tables: the
 * failure is counted and the claim given back; the `$4`-th failure parks the row FAILED with its reason. Parameters:
 * $1 the row id, $2 the claimant, $3 the reason, $4 PENDING_MAX_ATTEMPTS. Only a row the claimant still holds moves.
 */
export const recordFailureSql = (table: 'queued_messages' | 'recalls', columns: string) =>
  `UPDATE ${table} SET failures = failures + 1, failure_reason = $3, claimed_by = NULL, claimed_at = NULL,
     status = CASE WHEN failures + 1 >= $4 THEN 'FAILED' ELSE 'PENDING' END,
     failed_at = CASE WHEN failures + 1 >= $4 THEN now() ELSE NULL END
   WHERE id = $1::uuid AND status = 'CLAIMED' AND claimed_by = $2 RETURNING ${columns}`;
