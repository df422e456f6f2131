import { Caption1, Card, CardHeader, makeStyles, Text, tokens } from '@fluentui/react-components';
import { Info24Regular } from '@fluentui/react-icons';

const CATEGORIES: [string, string][] = [
  ['Access Control', 'user and role administration, authorizations, system access'],
  ['Data Privacy', 'personal and confidential data: HR, customers, employees'],
  ['Financial', 'payments, vendors, postings, financial reporting'],
  ['Operational', 'procurement, inventory, production and other business operations'],
];

const useStyles = makeStyles({
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalXS },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** SPEC §2: what the AI categories mean, and that suggestions are recommendations only. */
export function AiInfoCard() {
  const styles = useStyles();
  return (
    <Card className={styles.card}>
      <CardHeader image={<Info24Regular />} header={<Text weight="semibold">About AI Risk Categorization</Text>} />
      <Text>The AI assist suggests one of four categories for each access risk:</Text>
      <ul className={styles.list}>
        {CATEGORIES.map(([name, what]) => (
          <li key={name}>
            <Text weight="semibold">{name}</Text>: {what}
          </li>
        ))}
      </ul>
      <Caption1 className={styles.muted}>
        AI suggestions are recommendations only. Every suggestion needs manual review and approval by a reviewer, who accepts or rejects it.
      </Caption1>
    </Card>
  );
}
