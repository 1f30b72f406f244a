package sysbench

// c and pad templates (reference §2.2): '#' becomes a random digit.
const (
	cTemplate   = "###########-###########-###########-###########-###########-###########-###########-###########-###########-###########" // 119 chars
	padTemplate = "###########-###########-###########-###########-###########"                                                             // 59 chars
)
