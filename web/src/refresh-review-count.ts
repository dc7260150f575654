/** The number of candidates waiting, on the Review link; blank when none or unknown. */
import { api } from './api.js';
import type { CandidateList } from './api-types.js';

export async function refreshReviewCount(): Promise<void> {
  const badge = document.getElementById('review-count');
  if (!badge) return;
  try {
    const { candidates } = await api<CandidateList>('/api/candidates');
    badge.textContent = candidates.length > 0 ? String(candidates.length) : '';
  } catch {
    badge.textContent = '';
  }
}
