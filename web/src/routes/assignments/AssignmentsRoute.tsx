import { AdminOnly } from '../../components/AccessGate';
import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'Risk Assignment Management'. */
export default function AssignmentsRoute() {
  return (
    <AdminOnly>
      <NotAvailableYet title="Risk Assignment Management" />
    </AdminOnly>
  );
}
