import { NotAvailableYet } from '../../components/NotAvailableYet';

/** SPEC §2, 'All Review Decisions'. */
export default function AllReviewsRoute() {
  return <NotAvailableYet title="All Review Decisions" subtitle="Complete review history with shared role analysis" />;
}
