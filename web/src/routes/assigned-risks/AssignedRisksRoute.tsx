import { ReviewerOnly } from '../../components/AccessGate';
import { AssignedRisks } from './AssignedRisks';

/** SPEC §2, 'My Assigned Risks' (reviewers only). */
export default function AssignedRisksRoute() {
  return (
    <ReviewerOnly>
      <AssignedRisks />
    </ReviewerOnly>
  );
}
