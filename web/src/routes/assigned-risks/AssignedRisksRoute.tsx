import { ReviewerOnly } from '../../components/AccessGate';
import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'My Assigned Risks'. */
export default function AssignedRisksRoute() {
  return (
    <ReviewerOnly>
      <NotAvailableYet title="My Assigned Risks" />
    </ReviewerOnly>
  );
}
