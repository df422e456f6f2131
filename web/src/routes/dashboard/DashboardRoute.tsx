import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'Risk Management Dashboard'. */
export default function DashboardRoute() {
  return <NotAvailableYet title="Risk Management Dashboard" />;
}
