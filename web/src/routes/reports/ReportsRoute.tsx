import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'Reports'. */
export default function ReportsRoute() {
  return <NotAvailableYet title="Reports" />;
}
