import { verifyAuditChain, type ChainReport } from './audit-chain.ts';
import type { AuditEvent } from './audit-event.ts';
import type { AuditPage, AuditQuery, AuditTrail } from './audit-trail.ts';

/** Events read per round trip while verifying. */
const VERIFY_PAGE_SIZE = 1000;

export interface AuditServiceDeps {
  audit: AuditTrail;
}

/** Reading the audit trail, and proving it whole. */
export class AuditService {
  constructor(private readonly deps: AuditServiceDeps) {}

  list(query: AuditQuery): Promise<AuditPage> {
    return this.deps.audit.list(query);
  }

  /** Checks the whole chain that remains, from the cut to the head (see verifyAuditChain). */
  async verify(): Promise<ChainReport> {
    const { audit } = this.deps;
    const state = await audit.state();
    async function* events(): AsyncGenerator<AuditEvent> {
      let after = state.cut.seq;
      for (;;) {
        // Events appended after the state was read are not this verification's business.
        const page = (await audit.chain(after, VERIFY_PAGE_SIZE)).filter((event) => event.seq <= state.head.seq);
        yield* page;
        if (page.length < VERIFY_PAGE_SIZE) return;
        after = page.at(-1)!.seq;
      }
    }
    return verifyAuditChain(state, events());
  }
}
