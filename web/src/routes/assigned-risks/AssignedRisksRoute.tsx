import { useLoaderData } from 'react-router';
import { ReviewerOnly } from '../../shell/AccessGate';
import { AssignedRisks } from './AssignedRisks';
import type { AssignedRisksPrepared } from './assignedRisksLoader';

/** SPEC §2, 'My Assigned Risks' (reviewers only; also reviewers' Risk Review). */
export default function AssignedRisksRoute() {
  const prepared = useLoaderData() as AssignedRisksPrepared | null;
  return (
    <ReviewerOnly>
      <AssignedRisks prepared={prepared?.assignedRisks} />
    </ReviewerOnly>
  );
}
